import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { INFO_POPUP_MS } from '../../../../shared/constants';
import { Icon } from './Icon';

export type InfoTone = 'info' | 'success' | 'error';

interface InfoMessage {
  id: number;
  text: string;
  tone: InfoTone;
}

interface InfoPopupApi {
  show(text: string, tone?: InfoTone): void;
}

const InfoPopupContext = createContext<InfoPopupApi | null>(null);

export function useInfoPopup(): InfoPopupApi {
  const ctx = useContext(InfoPopupContext);
  if (!ctx) throw new Error('useInfoPopup outside InfoPopupProvider');
  return ctx;
}

/**
 * How long a pop-up of `tone` stays (ms) when nothing holds it: INFO_POPUP_MS, whatever its tone (product.md: info
 * pop-ups disappear after 3 seconds). The pointer on it or the focus in it holds it, so it can be read at one's own
 * pace.
 */
export function popupLifetime(_tone: InfoTone): number | null {
  return INFO_POPUP_MS;
}

function InfoPopupItem({ message, onDone }: { message: InfoMessage; onDone: (id: number) => void }) {
  // The pointer on it or the focus in it (its Dismiss button) holds it; its time runs on when they leave.
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const left = useRef(popupLifetime(message.tone));
  const held = hovered || focused;
  useEffect(() => {
    const ms = left.current;
    if (held || ms === null) return;
    const started = Date.now();
    const t = window.setTimeout(() => onDone(message.id), ms);
    return () => {
      window.clearTimeout(t);
      left.current = Math.max(0, ms - (Date.now() - started));
    };
  }, [held, message.id, onDone]);
  return (
    <div
      className={`info-popup info-${message.tone}`}
      role={message.tone === 'error' ? 'alert' : 'status'}
      data-testid="info-popup"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <Icon name={message.tone === 'success' ? 'check' : 'info'} size={18} />
      <span>{message.text}</span>
      <button type="button" className="icon-btn" aria-label="Dismiss" onClick={() => onDone(message.id)}>
        <Icon name="close" size={16} />
      </button>
    </div>
  );
}

/** Info pop-ups (toasts) that disappear after INFO_POPUP_MS (3 s) of being neither hovered nor focused. */
export function InfoPopupProvider({ children }: { children: ReactNode }) {
  const [messages, setMessages] = useState<InfoMessage[]>([]);
  const nextId = useRef(1);
  const remove = useCallback((id: number) => setMessages((prev) => prev.filter((m) => m.id !== id)), []);
  const api = useMemo<InfoPopupApi>(
    () => ({
      show(text, tone = 'info') {
        const id = nextId.current++;
        setMessages((prev) => [...prev.filter((m) => m.text !== text), { id, text, tone }]);
      },
    }),
    [],
  );
  return (
    <InfoPopupContext.Provider value={api}>
      {children}
      <div className="info-popups" aria-live="polite">
        {messages.map((m) => (
          <InfoPopupItem key={m.id} message={m} onDone={remove} />
        ))}
      </div>
    </InfoPopupContext.Provider>
  );
}
