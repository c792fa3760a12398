import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const mount = () => void import('./boot').then((boot) => boot.mount(root));
// The landing page arrives with its first screen as static markup (docs/web-delivery.md). Module
// scripts usually run before the browser's first paint, so React replaced that markup before it was
// ever shown and the hero waited for the app's render; fetching and evaluating React and the app
// also held that first paint back. So this entry is tiny: it imports the app only after the next
// frame (a rAF callback runs before that frame's paint, a task queued from it after). A hidden tab
// draws no frames: it mounts at once, or when hidden meanwhile, or after 1 s at the latest.
if (root.firstElementChild && document.visibilityState === 'visible') {
  let mounted = false;
  const once = () => {
    if (mounted) return;
    mounted = true;
    document.removeEventListener('visibilitychange', once);
    mount();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  document.addEventListener('visibilitychange', once);
  setTimeout(once, 1_000);
} else {
  mount();
}
