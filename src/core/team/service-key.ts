/**
 * How the team names a service: one spelling for the addresses that are the same (scheme and host in lower
 * case, no default port, no trailing slash), so two desks that typed the service a little differently still
 * claim the same reports. Addresses that differ in earnest (a host and its IP address, two gateways) cannot be
 * told apart here: desks of a team name the service by the same address (decision 0050).
 */
export function teamServiceKey(serviceUrl: string): string {
  if (!URL.canParse(serviceUrl)) return serviceUrl;
  const url = new URL(serviceUrl);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** A report pulled from the team is stored under this desk's own spelling of its service, when it is the same. */
export function localServiceUrl(teamUrl: string, deskServiceUrl: string): string {
  return teamServiceKey(teamUrl) === teamServiceKey(deskServiceUrl) ? deskServiceUrl : teamUrl;
}
