import { Link } from 'react-router-dom';
import { Icon } from '../../../components/ui/Icon';

/**
 * What a list or master-data screen shows to a user who has no company (removed from their only one, or none
 * added yet): documents and master data belong to a company, and the Dashboard's ADD COMPANY makes one.
 */
export function NoCompany() {
  return (
    <div className="empty-state no-company" data-testid="no-company">
      <Icon name="building" size={36} />
      <p>No companies yet</p>
      <span className="muted">
        Documents and master data belong to a company. Add one with ADD COMPANY on the <Link to="/dashboard">Dashboard</Link>.
      </span>
    </div>
  );
}
