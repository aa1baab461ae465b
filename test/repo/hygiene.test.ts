/** Rules of the repository itself that no compiler checks: paths, frozen migrations, one version. */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/core/db/migrations';
import { APP_VERSION } from '../../src/core';

const root = path.resolve(__dirname, '../..');

/**
 * One hash per shipped entry of MIGRATIONS. A desk that already ran an entry never runs it again, so editing
 * one splits users into two schemas: append a new entry instead, and add its hash here when it ships.
 */
const SHIPPED_MIGRATIONS = [
  'e5541b84e727e895bbc37ed8d426e5b0fa03b02b8027667ccc43ee8ba452dac7',
  'dbac9f1f3dec2174503261eee728e7c41e2a156844fd3eb43bcafad29d9afae4',
  'cdcff3eb690cd81da248557e109b23514f7da3bb741dbaa36dd6c32e9b609a42',
  '22321238cba360582017d9d84af883996e98dcaf53926a5cf8d2eaf178e29ec8',
  '3cc6dbd646a0de300cab60d224a2ad162d8d1fd5fd95292ddb31227a23214a33',
  '40cbcae10a3e4f58823b76179e0f681476c04c3511968327f2861e54331f8a63',
  '575606150e6306b49a4f57e180e73c6c2fe7a6d693b4ad0b0ba2d5dc20f33480',
  'f6a23a1769baac31c7e3adc8c444edfb10cecfaa3a64716fece3f2974f73739a',
  '32fe1ccbeacad99b24398cc49e7622b9b7ab999c90f50312a6a037df844c3c4c',
  'c0f69ea26ee609ae40f93789d0800fd6f0ccda4a1298a4100f3f905e637ddbea',
  'cec146defa4ef999cd158ae0695cbfac263f5b202dfbf2e3dc4fabc042be9920',
  'b99fbb07c4b34db928e1d548ea69944ea880a182d58a643c00a3980a63f98bed',
  '62563887089d2202833ed604c282a03099db7fdb1e6cbebba89f900ac68ab6f0',
  '208dfeca09e32dc8b349628a6a79458303a736266b828f1282741f8ac88a90be',
  '1ef2032a7a2e800613fe55100eccb2330e33ea840af5f52c7ac651056f8c5f58',
  'a212d4c5a19d0998a9fd444c6eaf83f5a91b3dd64b478e00a0e977c5eaaba1bd',
  '2a05a6c1f6dc0975ce1dab666d18c044c99468b62bf7cc27a08c3b4889326b32',
  '2007d6b583028b26b52d2c0035a749a4b1c56904be63cace5550adcf559483ae',
  '4a3174eb446c7a39bea97cfb16332890ae8ff758a555270de7f27b89610336cc',
];

const MODULE_EXTENSION = /\.(?:[cm]?[jt]sx?)$/;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('repository hygiene', () => {
  it('has no two tracked paths or module specifiers that differ only by case', () => {
    // On the case-insensitive disks of macOS and Windows, `./charts` may resolve to Charts.tsx.
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean);
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const file of files) {
      // Every folder on the way counts too: src/A/x.ts and src/a/y.ts clash on a case-insensitive disk.
      const parts = file.split('/');
      for (let depth = 1; depth <= parts.length; depth++) {
        const prefix = parts.slice(0, depth).join('/');
        const folded = prefix.toLowerCase().replace(MODULE_EXTENSION, '');
        const other = seen.get(folded);
        if (other !== undefined && other !== prefix) clashes.push(`${other} ~ ${prefix}`);
        else seen.set(folded, prefix);
      }
    }
    expect([...new Set(clashes)]).toEqual([]);
  });

  it('keeps every shipped migration byte for byte and pins each new one', () => {
    expect(MIGRATIONS.map(sha256)).toEqual(SHIPPED_MIGRATIONS);
  });

  it('reports the version written in package.json', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    expect(APP_VERSION).toBe(pkg.version);
  });
});
