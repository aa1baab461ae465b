/**
 * The team database password as the desktop app and a command line on the same folder see it: the app seals it
 * with the system keychain, which a plain Node process has not. The command line says so, and what to do,
 * rather than that the password cannot be unsealed "on this computer"; joined once from the command line, it
 * is sealed so both read it.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDeskDb } from '../../src/core/db/open';
import { LocalSealer, type SecretVault } from '../../src/core/wallet/sealing';
import { keychain } from '../core/test-keychain';
import { TeamMembership } from '../../src/core/team/membership';
import { failure, tempDir } from '../core/helpers';

const folders: { remove(): void }[] = [];
afterEach(() => folders.splice(0).forEach((folder) => folder.remove()));

function membershipIn(dir: string, vault: SecretVault | undefined) {
  const { db } = openDeskDb(path.join(dir, 'desk.db'), () => new Date());
  const sealer = new LocalSealer(path.join(dir, 'local.key'), vault);
  return { db, membership: new TeamMembership(db, path.join(dir, 'team-db.sealed'), sealer) };
}

const JOIN = {
  url: 'postgresql://alice@/research?host=%2Fvar%2Frun%2Fpostgresql',
  teamName: 'research',
  analyst: 'alice',
  now: new Date('2026-11-28T12:00:00Z'),
};

describe('the team password sealed by the app, read by the command line', () => {
  it('names the keychain and the way out, and a join from the command line serves both', async () => {
    const folder = tempDir('desk-team-seal-');
    folders.push(folder);
    const vault = keychain();
    const app = membershipIn(folder.dir, vault);
    app.membership.join({ ...JOIN, password: 'pw-alice' });
    expect(app.membership.connection()?.password).toBe('pw-alice');
    app.db.close();

    const cli = membershipIn(folder.dir, undefined);
    const refused = await failure(Promise.resolve().then(() => cli.membership.connection()));
    expect(refused.code).toBe('team_auth_failed');
    expect(refused.message).toContain('sealed by the desktop app with the system keychain');
    expect(refused.message).toContain('"intel-desk team join --db URL" here once');
    cli.membership.join({ ...JOIN, password: 'pw-alice' });
    expect(cli.membership.connection()?.password).toBe('pw-alice');
    cli.db.close();

    const appAgain = membershipIn(folder.dir, vault);
    expect(appAgain.membership.connection()?.password).toBe('pw-alice');
    appAgain.db.close();
  });

  it('still says a password sealed elsewhere cannot be unsealed here', async () => {
    const folder = tempDir('desk-team-seal-');
    folders.push(folder);
    const first = membershipIn(folder.dir, undefined);
    first.membership.join({ ...JOIN, password: 'pw-alice' });
    first.db.close();
    // Another computer's local.key: the data folder was copied without it.
    rmSync(path.join(folder.dir, 'local.key'));
    const copied = membershipIn(folder.dir, undefined);
    const refused = await failure(Promise.resolve().then(() => copied.membership.connection()));
    expect(refused.message).toContain('cannot be unsealed on this computer');
    copied.db.close();
  });
});
