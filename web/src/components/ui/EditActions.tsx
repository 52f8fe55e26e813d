import { Button } from './Button';

/**
 * Cancel and SAVE under a form that is edited in place (My Profile, Settings): shown only once something changed;
 * Cancel puts the form back as it was saved.
 */
export function EditActions({ dirty, pending, onCancel }: { dirty: boolean; pending: boolean; onCancel(): void }) {
  if (!dirty) return null;
  return (
    <div className="form-actions">
      <Button variant="secondary" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <Button type="submit" loading={pending}>
        SAVE
      </Button>
    </div>
  );
}
