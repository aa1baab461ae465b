/**
 * The first-run welcome: what the demo is, what the wallet holds, where to start. Not a modal, so it never
 * stands between a person and the screen; closing it is remembered in desk.db, and Help opens it again.
 */
import { useEffect, useRef } from 'react';
import { useNavigate } from '../hooks/route';

/**
 * `focus`: opened from Help, so focus moves to it; on first run the screen keeps it. `onShelf`: the Shelf is
 * already the screen, so there is no "Start on the Shelf" to offer.
 */
export function Welcome(props: {
  demo: boolean;
  focus: boolean;
  onShelf: boolean;
  onClose: () => void;
  onSyntax: () => void;
}) {
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (props.focus) heading.current?.focus();
  }, [props.focus]);
  return (
    <section className="welcome" aria-labelledby="welcome-title" data-testid="welcome">
      <h2 id="welcome-title" ref={heading} tabIndex={-1}>
        Welcome to Intel Desk
      </h2>
      {props.demo ? (
        <ul>
          <li>
            The <span className="badge">demo</span> badge means everything runs on this computer: a local copy
            of the report service and a local test chain (chain id 31337), not Base. Nothing here costs real
            money.
          </li>
          <li>
            The wallet is a test key funded with test USDC on that local chain, ready to pay. Its balance is
            under Settings → Wallet.
          </li>
          <li>
            Start on the <strong>Shelf</strong>: open a handle, choose reports in its menu and buy them. What
            you own is in the <strong>Library</strong>, readable offline and exportable. The demo&apos;s own
            library secret is offered in Settings, for <strong>Dossiers</strong>; with it set, menus also
            offer to read reports free, beside Buy.
          </li>
        </ul>
      ) : (
        <ul>
          <li>
            Start on the <strong>Shelf</strong>: open a handle, see the live price of its reports, and buy
            them with USDC. Set up a wallet first under <strong>Settings → Wallet</strong>.
          </li>
          <li>
            What you own is in the <strong>Library</strong>, readable offline, searchable and exportable.
          </li>
        </ul>
      )}
      <p>
        The Library&apos;s search takes words, &quot;phrases&quot;, <code>handle:</code>, <code>topic:</code>,{' '}
        <code>posts&gt;100</code> and more: press <kbd>?</kbd> or{' '}
        <button type="button" className="link" onClick={props.onSyntax}>
          see the search syntax
        </button>
        .
      </p>
      <div className="actions">
        {props.onShelf ? null : (
          <button
            type="button"
            className="primary"
            onClick={() => {
              props.onClose();
              navigate({ screen: 'shelf' });
            }}
          >
            Start on the Shelf
          </button>
        )}
        <button type="button" className={props.onShelf ? 'primary' : undefined} onClick={props.onClose}>
          Close
        </button>
      </div>
    </section>
  );
}
