// MigrateTodoAngularJSToReact x ToDoApp_AngularJS, on the dialog's final workspace: the
// AngularJS to-do app as React 18 (createRoot inside StrictMode from src/main.jsx, into
// <div id="root">), keeping the key 'todos-angularjs' with { id, title, completed,
// createdAt }, the routes #!/, #!/active, #!/completed, the creation date of each to-do,
// and starting empty on a corrupt stored value (step 2).
import assert from 'node:assert/strict';
import { todoSuite } from './todo.mjs';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n) => String(n).padStart(2, '0');

// AngularJS's date filter 'd MMM, HH:mm' in the page's (local) time zone, e.g. "5 Sep, 07:04"
function angularDate(ms) {
  const d = new Date(ms);
  return `${d.getDate()} ${MONTHS[d.getMonth()]}, ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const SEPTEMBER = new Date(2024, 8, 5, 7, 4).getTime();
const DECEMBER = new Date(2024, 11, 24, 18, 30).getTime();
const MARCH = new Date(2025, 2, 1, 9, 15).getTime();

todoSuite({
  entry: 'src/main.jsx',
  storageKey: 'todos-angularjs',
  shape: ['id', 'title', 'completed', 'createdAt'],
  saved: [
    { id: SEPTEMBER, title: 'Water the plants', completed: false, createdAt: SEPTEMBER },
    { id: DECEMBER, title: 'Pay the rent', completed: true, createdAt: DECEMBER },
    { id: MARCH, title: 'Call grandma', completed: false, createdAt: MARCH },
  ],
  hash: { all: '#!/', active: '#!/active', completed: '#!/completed' },
  newItem(todo) {
    assert.ok(Number.isFinite(todo.createdAt) && Math.abs(Date.now() - todo.createdAt) < 60_000,
      'a new to-do should store its creation time in milliseconds as "createdAt"');
  },
  extras: { functionComponents: true, corruptStorage: true, createdDate: angularDate },
});
