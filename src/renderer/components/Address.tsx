/**
 * An address as people check one: shortened (0x1234…abcd) in its checksummed form, the whole of it on
 * hover, and a button that copies it whole, so nobody compares 40 hex digits wrapped over three lines.
 */
import { useEffect, useState } from 'react';
import { getAddress, isAddress, isAddressEqual } from 'viem';
import { shortAddress } from '../format';
import { copyText } from './CopyButton';

/** The checksummed form when it is an address; anything else as it came. */
export function checksummed(address: string): string {
  return isAddress(address, { strict: false }) ? getAddress(address) : address;
}

/** The same account, whatever the letter case; false when either is not an address. */
export function sameAddress(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b || !isAddress(a, { strict: false }) || !isAddress(b, { strict: false })) return false;
  return isAddressEqual(a, b);
}

export function Address(props: { address: string; label: string; testId?: string }) {
  const full = checksummed(props.address);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2_000);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <span className="address">
      <span className="mono" title={full} data-testid={props.testId} data-address={full}>
        {shortAddress(full)}
      </span>{' '}
      <button
        type="button"
        className="link copy"
        aria-label={`Copy the ${props.label} ${full}`}
        onClick={() => void copyText(full).then(setCopied)}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}
