// UpdateReact x ToDoApp_ReactJS: the React 16 to-do app updated to React 18 keeps every
// behaviour, the storage key 'todos-reactjs' with { id, title, completed }, and the
// hashes #/, #/active, #/completed; it mounts with createRoot inside StrictMode from
// src/main.jsx (or the module index.html loads) and renders function components only.
import { todoSuite } from './todo.mjs';

todoSuite({
  entry: 'src/main.jsx',
  storageKey: 'todos-reactjs',
  shape: ['id', 'title', 'completed'],
  saved: [
    { id: 'lq2b3c-17', title: 'Water the plants', completed: false },
    { id: 'lq2b3d-42', title: 'Pay the rent', completed: true },
    { id: 'lq2b3e-7', title: 'Call grandma', completed: false },
  ],
  hash: { all: '#/', active: '#/active', completed: '#/completed' },
  extras: { functionComponents: true, newFieldKeys: { maxLength: 140 }, clearFocusesNew: true },
});
