// Shared helpers. Key codes are compared against event.which.
export const ENTER_KEY = 13;
export const ESCAPE_KEY = 27;

export function makeId() {
  // good enough for a to-do list
  return Date.now().toString(36) + '-' + Math.floor(Math.random() * 10000);
}

export function pluralize(count, word) {
  return count === 1 ? word : word + 's';
}

export function loadTodos(key) {
  var saved = localStorage.getItem(key);
  return (saved && JSON.parse(saved)) || [];
}

export function saveTodos(key, todos) {
  localStorage.setItem(key, JSON.stringify(todos));
}

export function readFilter(hash) {
  var name = hash.replace('#/', '');
  if (name === 'active' || name === 'completed') {
    return name;
  }
  return 'all';
}
