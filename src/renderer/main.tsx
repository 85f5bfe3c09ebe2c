/** The renderer's entry: picks the transport (Electron preload or HTTP) and mounts the app. */

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiProvider } from './app/api-context.js';
import { App } from './app/App.js';
import { chooseApi } from './transport/choose.js';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ApiProvider api={chooseApi()}>
      <App />
    </ApiProvider>
  </StrictMode>,
);
