import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import type { IdentityProviderId } from '../../../../contract/auth.ts';
import type { LinkedIdentity } from '../../../../contract/sign-in-methods.ts';
import { useApiDispatch } from '../../api/api.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { LoadingSpinner } from '../../components/loading-spinner.tsx';
import { OperationError } from '../../components/operation-error.tsx';
import { formatDateTime } from '../../lib/format-date.ts';
import { openSignInPopup, POPUP_BLOCKED, popupOutcome } from '../../lib/sign-in-popup.ts';
import { useListChanges } from '../../lib/use-list-changes.ts';
import {
  linkStartPath,
  signInMethodsApi,
  useAskToLinkMutation,
  useSignInMethodsQuery,
  useUnlinkIdentityMutation,
} from './sign-in-methods.api.ts';

const LAST_WAY_IN = 'Your only way to sign in: set a password or link another provider before unlinking it.';

/**
 * The ways into the account: the password, and each provider linked to it, which may be unlinked
 * while another way in remains; a provider on offer and not linked yet is linked through the same
 * popup as a sign-in. A password set makes unlinking possible: the password's change invalidates the list.
 */
export function SignInMethodsSection() {
  const dispatch = useApiDispatch();
  const [askToLink] = useAskToLinkMutation();
  const [unlinkIdentity] = useUnlinkIdentityMutation();
  const { items: methods, busy, error, change } = useListChanges(useSignInMethodsQuery());
  const [unlinking, setUnlinking] = useState<LinkedIdentity | null>(null);
  // Leaving the page closes a popup still open, as a sign-in's does.
  const mounted = useRef<AbortController | null>(null);
  useEffect(() => {
    const stop = new AbortController();
    mounted.current = stop;
    return () => stop.abort();
  }, []);

  function link(provider: IdentityProviderId) {
    // Opened by the click itself: opened after the call below, the popup might be blocked.
    const popup = openSignInPopup('about:blank');
    void change(async () => {
      if (popup === null) throw new Error(POPUP_BLOCKED);
      try {
        await askToLink(provider).unwrap();
      } catch (failure) {
        popup.close();
        throw failure;
      }
      popup.location.href = linkStartPath(provider);
      const outcome = await popupOutcome(popup, mounted.current?.signal ?? AbortSignal.abort());
      if (!outcome.ok) throw new Error(outcome.message);
      dispatch(signInMethodsApi.util.invalidateTags(['SignInMethods']));
    });
  }

  function unlink(identity: LinkedIdentity) {
    setUnlinking(null);
    void change(() => unlinkIdentity(identity.id).unwrap());
  }

  const linked = new Set(methods?.identities.map((identity) => identity.provider));
  const toLink = methods?.providers.filter((provider) => !linked.has(provider.id)) ?? [];
  return (
    <section id="sign-in-methods" className="mt-4">
      <h2 className="h5">Sign-in methods</h2>
      <OperationError message={error} id="sign-in-methods-error" />
      {methods === null ? (
        busy && <LoadingSpinner />
      ) : (
        <>
          <Table size="sm" responsive>
            <thead>
              <tr>
                <th scope="col">Method</th>
                <th scope="col">Linked</th>
                <th scope="col">Last sign-in</th>
                <th scope="col">
                  <span className="visually-hidden">Unlink</span>
                </th>
              </tr>
            </thead>
            <tbody>
              <tr id="sign-in-password">
                <td>Password</td>
                <td colSpan={3}>{methods.password ? 'Set' : 'Not set: choose one under Password to sign in with your e-mail too'}</td>
              </tr>
              {methods.identities.map((identity) => (
                <tr key={identity.id} className="linked-identity">
                  <td className="text-break">{identity.name}</td>
                  <td>{formatDateTime(identity.linkedAt)}</td>
                  <td>{formatDateTime(identity.lastSignInAt)}</td>
                  <td>
                    <Button
                      size="sm"
                      variant="outline-danger"
                      disabled={busy || !identity.canUnlink}
                      title={identity.canUnlink ? undefined : LAST_WAY_IN}
                      onClick={() => setUnlinking(identity)}
                    >
                      Unlink
                    </Button>
                    {!identity.canUnlink && <div className="form-text">{LAST_WAY_IN}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
          {toLink.length > 0 && (
            <div className="d-flex flex-wrap gap-2">
              {toLink.map((provider) => (
                <Button key={provider.id} variant="outline-primary" disabled={busy} onClick={() => link(provider.id)}>
                  {`Link ${provider.name}`}
                </Button>
              ))}
            </div>
          )}
        </>
      )}
      <ConfirmDialog
        show={unlinking !== null}
        title={`Unlink ${unlinking?.name ?? ''}?`}
        body={`Signing in with this ${unlinking?.name ?? ''} account will no longer open this account.`}
        confirm="Unlink"
        busy={busy}
        onConfirm={() => unlinking && unlink(unlinking)}
        onCancel={() => setUnlinking(null)}
      />
    </section>
  );
}
