import { useState } from 'react';
import { useAuth } from '../../../app/auth';
import { keptUploads, type KeptUploads } from '../lib/kept-uploads';
import { UploadModal } from './UploadModal';

/**
 * On the documents list: when files were kept because the session ended while they uploaded (lib/kept-uploads.ts),
 * the upload pop-up opens again with them once the same user is back (RECONNECT keeps the list's path, the
 * sign-in returns to it), ready to try again, or naming those whose File a reload has lost.
 */
export function ResumeUploads() {
  const userId = useAuth().user?.userId ?? '';
  const [resume, setResume] = useState<KeptUploads | null>(() => {
    const kept = keptUploads(userId);
    return kept.uploads.length || kept.lostNames.length ? kept : null;
  });
  if (!resume) return null;
  return <UploadModal resume={resume} onClose={() => setResume(null)} />;
}
