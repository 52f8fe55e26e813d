import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { useInfoPopup } from './InfoPopup';

/**
 * Leaves a screen the user may not open for the dashboard, saying why in an info pop-up (a typed-in address or a
 * company switched meanwhile no longer lands on the dashboard without a word). No pop-up for a null notice.
 */
export function LeaveForDashboard({ notice }: { notice: string | null }) {
  const info = useInfoPopup();
  const navigate = useNavigate();
  useEffect(() => {
    if (notice) info.show(notice, 'info');
    navigate('/dashboard', { replace: true });
  }, [info, navigate, notice]);
  return null;
}
