import { useMenuButton } from '../../../components/ui/menu-button';
import { DocIcon } from './DocIcon';

export interface MenuAction {
  label: string;
  onSelect(): void;
  disabled?: boolean;
}

/**
 * A small drop-down menu (button + list of actions), with the keyboard and closing of useMenuButton; a disabled
 * menu does not open and its button keeps the focus (aria-disabled).
 */
export function ToolsMenu({ label, actions, disabled }: { label: string; actions: MenuAction[]; disabled?: boolean }) {
  const menu = useMenuButton(disabled);

  return (
    <div className="menu-root" {...menu.rootProps}>
      <button {...menu.buttonProps} className="icon-btn toolbar-btn" aria-label={label} title={label}>
        <DocIcon name="tools" size={20} />
      </button>
      {menu.open && (
        <div className="menu" {...menu.menuProps} aria-label={label}>
          {actions.map((a) => (
            <button key={a.label} {...menu.itemProps(a)} className="menu-item">
              {a.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
