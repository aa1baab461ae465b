/**
 * The origin the desk reaches the service at, when that is not the address it listens on (a gateway, a reverse
 * proxy, TLS in front). Every URL the service writes into a challenge names it: the 402's `resource.url`, and
 * the sign-in challenge's domain and URI, which the desk signs only when they name the origin it asked. It is
 * configured, never read from a request's Host or X-Forwarded-Host: a reflected host would let another site
 * relay a sign-in it obtained for itself.
 */
import { z } from 'zod';

export const PUBLIC_URL_ENV = 'INTEL_DESK_SERVICE_PUBLIC_URL';

const originSchema = z
  .string()
  .trim()
  .min(1, 'it is empty')
  .max(2048, 'it is over 2048 characters')
  .transform((text, ctx) => {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'it is not a URL' });
      return z.NEVER;
    }
    const problem =
      url.protocol !== 'http:' && url.protocol !== 'https:'
        ? `its scheme is ${url.protocol.replace(/:$/, '')}, not http or https`
        : url.username !== '' || url.password !== ''
          ? 'it carries a user name or password'
          : url.pathname !== '/'
            ? `it has a path (${url.pathname}); the routes are served at the origin's root`
            : url.search !== '' || url.hash !== ''
              ? 'it has a query or fragment'
              : null;
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return url.origin;
  });

/** The configured public origin (scheme, host, port), or an error naming the setting and what is wrong. */
export function parsePublicUrl(text: string, source: string = PUBLIC_URL_ENV): string {
  const parsed = originSchema.safeParse(text);
  if (parsed.success) return parsed.data;
  const reason = parsed.error.issues.map((issue) => issue.message).join('; ');
  throw new Error(
    `${source} must be the origin the desk reaches the service at, such as https://intel.example.com (scheme, host and optional port): ${JSON.stringify(text)} is not (${reason})`,
  );
}
