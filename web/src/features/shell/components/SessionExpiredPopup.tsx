import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useAuth } from '../../../app/auth';
import { useSessionExpiry } from '../../../app/session-expiry';
import { Button } from '../../../components/ui/Button';
import { Modal } from '../../../components/ui/Modal';

export const SESSION_EXPIRED_TEXT = 'Your previous session has expired.';

const AUTH_PATHS = ['/signin', '/signup', '/forgot'];

/** Shown on a 401 or a failed token refresh; RECONNECT signs out and returns to /signin, keeping the path. */
export function SessionExpiredPopup() {
  const { expired, clear } = useSessionExpiry();
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  if (!expired) return null;

  const onReconnect = async () => {
    setPending(true);
    const path = `${location.pathname}${location.search}`;
    const from = AUTH_PATHS.some((p) => location.pathname === p || location.pathname.startsWith(`${p}/`)) || location.pathname === '/'
      ? undefined
      : path;
    await auth.signOut({ keepPath: true });
    clear();
    setPending(false);
    navigate('/signin', { replace: true, state: { from } });
  };

  return (
    <Modal title="Session expired" size="sm" testId="session-expired">
      <p className="modal-text">{SESSION_EXPIRED_TEXT}</p>
      <div className="modal-actions">
        <Button onClick={() => void onReconnect()} loading={pending}>
          RECONNECT
        </Button>
      </div>
    </Modal>
  );
}
