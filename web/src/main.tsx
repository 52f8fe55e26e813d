import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { preloadOpenedPath } from './app/router';

const root = document.getElementById('root');
if (!root) throw new Error('#root element missing');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The opened screen's code (a chunk of its own) loads while the app starts; the page has loaded when it is in.
await preloadOpenedPath(window.location.pathname);
