// UpgradeReactTodo x ToDoApp_ReactJS, on the dialog's final workspace: the React 16 to-do
// app upgraded in place (entry src/index.js, loaded by the root index.html) mounts with
// createRoot inside StrictMode, renders function components only, keeps every behaviour,
// the key 'todos-reactjs' with { id, title, completed } and the hashes #/, #/active,
// #/completed, and starts empty on a corrupt stored value (step 2).
import { todoSuite } from './todo.mjs';

todoSuite({
  entry: 'src/index.js',
  storageKey: 'todos-reactjs',
  shape: ['id', 'title', 'completed'],
  saved: [
    { id: 'lq2b3c-17', title: 'Water the plants', completed: false },
    { id: 'lq2b3d-42', title: 'Pay the rent', completed: true },
    { id: 'lq2b3e-7', title: 'Call grandma', completed: false },
  ],
  hash: { all: '#/', active: '#/active', completed: '#/completed' },
  extras: { functionComponents: true, newFieldKeys: { maxLength: 140 }, clearFocusesNew: true, corruptStorage: true },
});
