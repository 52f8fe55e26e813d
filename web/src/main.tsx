import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadOpenedPath } from './app/router';
import { keepFileDropsInApp } from './components/ui/file-drop';
import { keepFocusInSight } from './components/ui/focus-in-sight';

const root = document.getElementById('root');
if (!root) throw new Error('#root element missing');

// The keyboard focus is never left under the header or another part of the screen that stays in sight.
keepFocusInSight();
// A file dropped beside a drop zone is not opened by the browser in place of the app.
keepFileDropsInApp();

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The opened screen's code (a chunk of its own) loads while the app starts; the page has loaded when it is in.
await preloadOpenedPath(window.location.pathname);
