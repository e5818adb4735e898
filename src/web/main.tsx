import { createRoot } from 'react-dom/client';
import { App } from './app.tsx';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('Canto: #root element missing from index.html');
createRoot(root).render(<App />);
