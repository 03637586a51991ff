// jQueryToReact x ToDoApp_jQuery: the jQuery to-do list as a React 18 app (createRoot,
// src/main.jsx or the module index.html loads; no jQuery: the page's script tags are not
// loaded, so nothing but the bundle runs). It keeps the key 'todos-jquery' with
// { id, title, completed }, the hashes #/all, #/active, #/completed, and shows titles as text.
import { todoSuite } from './todo.mjs';

todoSuite({
  entry: 'src/main.jsx',
  storageKey: 'todos-jquery',
  shape: ['id', 'title', 'completed'],
  saved: [
    { id: 1700000000001, title: 'Water the plants', completed: false },
    { id: 1700000000002, title: 'Pay the rent', completed: true },
    { id: 1700000000003, title: 'Call grandma', completed: false },
  ],
  hash: { all: '#/all', active: '#/active', completed: '#/completed' },
  extras: { functionComponents: true, markupAsText: true },
});
