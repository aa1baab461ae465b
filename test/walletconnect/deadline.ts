/**
 * A deadline for one step of a long test. A test that only has an overall timeout says "timed out" and nothing
 * else; a step that names itself says which wait never ended, so a rare hang can be told from a slow machine.
 */
export async function step<T>(
  what: string,
  work: Promise<T> | (() => Promise<T>),
  timeoutMs = 30_000,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Step "${what}" did not finish in ${timeoutMs} ms.`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([typeof work === 'function' ? work() : work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
