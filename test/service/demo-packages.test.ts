import { describe, expect, it } from 'vitest';
import {
  DemoPackageMissing,
  loadDemoPackage,
  resolveDemoPackage,
} from '../../src/service/chain/demo-packages';

describe('the demo packages', () => {
  it('resolves the installed ones', () => {
    expect(resolveDemoPackage('@foundry-rs/anvil')).toMatch(/@foundry-rs[/\\]anvil[/\\]package\.json$/);
    expect(loadDemoPackage('solc')).toHaveProperty('compile');
  });

  it('names a missing one and says how to get the demo', () => {
    const missing = () => resolveDemoPackage('intel-desk-no-such-demo-package');
    expect(missing).toThrow(DemoPackageMissing);
    expect(missing).toThrow(/needs intel-desk-no-such-demo-package, a development package/);
    expect(missing).toThrow(/`npm install` .*then `npm start`/);
  });
});
