import { useMenuButton } from '../../../components/ui/menu-button';
import { EditIcon } from './EditIcons';

export interface MoreAction {
  label: string;
  onSelect(): void;
  disabled?: boolean;
  tone?: 'danger';
  /** Something to look at (duplicates found): marked in the menu, and a dot on the More button. */
  warn?: boolean;
}

/**
 * The edit screen's overflow menu on narrow screens (the documents list's Tools menu pattern): a More button and its
 * list of actions, with the keyboard and closing of useMenuButton.
 */
export function MoreMenu({ actions }: { actions: MoreAction[] }) {
  const menu = useMenuButton();

  return (
    <div className="menu-root er-more" {...menu.rootProps}>
      <button {...menu.buttonProps} className="icon-btn" aria-label="More" title="More" data-testid="more-actions">
        <EditIcon name="more" strokeWidth={3} />
        {actions.some((a) => a.warn) && <span className="er-more-dot" aria-hidden="true" />}
      </button>
      {menu.open && (
        <div className="menu er-more-menu" {...menu.menuProps} aria-label="More">
          {actions.map((a) => (
            <button
              key={a.label}
              {...menu.itemProps(a)}
              className={`menu-item ${a.tone === 'danger' ? 'er-more-danger' : ''} ${a.warn ? 'is-warn' : ''}`}
            >
              {a.label}
              {a.warn && <span className="er-more-dot" aria-hidden="true" />}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
