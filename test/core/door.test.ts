/**
 * Core's one door (src/core/handlers/door.ts): a handler called directly, as the CLI and the MCP server call them,
 * checks its input against the contract before anything runs, just as the hosts' dispatch does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createDeskCore, type DeskCore } from '../../src/core';
import type { RpcHandlers } from '../../src/shared/rpc';
import { closedPortUrl } from '../closed-port';
import { failure, tempDir } from './helpers';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function desk(): Promise<DeskCore> {
  const data = tempDir('desk-door-');
  const core = await createDeskCore({ dataDir: data.dir, serviceUrl: await closedPortUrl(), attempts: 1 });
  cleanups.push(data.remove, () => core.close());
  return core;
}

/** A call with input the contract's types would not allow, as untyped JavaScript or a bad cast could make. */
function untyped<M extends keyof RpcHandlers>(handlers: RpcHandlers, method: M) {
  return handlers[method] as unknown as (input: unknown) => Promise<unknown>;
}

describe("core's handlers check their own input", () => {
  it('refuses input that does not fit the contract, naming where, and changes nothing', async () => {
    const core = await desk();
    const negative = await failure(untyped(core.handlers, 'settings.update')({ dailyCapUnits: '-5' }));
    expect(negative).toMatchObject({ code: 'invalid_input', kind: 'usage' });
    expect(negative.message).toMatch(/^That request was not valid \(dailyCapUnits\): /);
    expect((await core.handlers['settings.get']({})).dailyCapUnits).toBe('20000000');
    // Money crosses as base-unit strings: a float of dollars is no longer an amount.
    const float = await failure(untyped(core.handlers, 'settings.update')({ dailyCapUnits: 0.0125 }));
    expect(float).toMatchObject({ code: 'invalid_input', kind: 'usage' });

    const wrongType = await failure(untyped(core.handlers, 'report.get')({ id: 5 }));
    expect(wrongType).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('(id)') });
  });

  it('passes input that fits to the domain code', async () => {
    const core = await desk();
    const updated = await core.handlers['settings.update']({ dailyCapUnits: '7000000' });
    expect(updated.dailyCapUnits).toBe('7000000');
  });
});
