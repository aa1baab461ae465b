/**
 * Resource addresses: intel-desk://report/<service>/<id> for an owned report and intel-desk://search/<id> for
 * a saved search. The service is a URL, so it travels percent-encoded as one path segment: report ids are
 * unique only within one service.
 */
export const REPORT_TEMPLATE = 'intel-desk://report/{service}/{id}';
export const SEARCH_TEMPLATE = 'intel-desk://search/{id}';

export const reportUri = (serviceUrl: string, id: string): string =>
  `intel-desk://report/${encodeURIComponent(serviceUrl)}/${encodeURIComponent(id)}`;

export const searchUri = (id: number): string => `intel-desk://search/${id}`;
