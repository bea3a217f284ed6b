import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { registerShellTranslations } from './i18n';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
// the stored language's texts (bundled for Portuguese, fetched otherwise) before the first render
void registerShellTranslations().finally(() => root.render(<App />));
