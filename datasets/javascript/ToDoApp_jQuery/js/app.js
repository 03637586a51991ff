/*
 * To-do list with jQuery. Everything is re-rendered from `todos` after each change,
 * and render() also writes the list to localStorage ('todos-jquery'):
 *   [{ id: 1700000000000, title: 'Buy milk', completed: false }, ...]
 * The list's events are bound once, by delegation, in the ready handler at the bottom.
 */
var ENTER_KEY = 13;
var ESCAPE_KEY = 27;
var todos = [];
var filter = 'all';

function escapeHtml(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// position in `todos` of the todo whose <li> holds el
function indexFromEl(el) {
  var id = $(el).closest('li').data('id');
  return todos.findIndex(function (t) { return t.id === id; });
}

function visibleTodos() {
  return todos.filter(function (t) {
    return filter === 'all' || (filter === 'active' ? !t.completed : t.completed);
  });
}

// Rebuilds the list, the counter, the filter links and the buttons; then saves.
function render() {
  var html = '';
  var left = 0;
  $.each(visibleTodos(), function (i, t) {
    html += '<li data-id="' + t.id + '"' + (t.completed ? ' class="completed"' : '') + '>' +
      '<div class="view"><input class="toggle" type="checkbox"' + (t.completed ? ' checked' : '') + '>' +
      '<label>' + escapeHtml(t.title) + '</label><button class="destroy"></button></div>' +
      '<input class="edit" value="' + escapeHtml(t.title) + '"></li>';
  });
  $('#todo-list').html(html);
  $.each(todos, function (i, t) { if (!t.completed) left++; });
  var done = todos.length - left;

  var footer = '<span id="todo-count"><strong>' + left + '</strong> ' + (left === 1 ? 'item' : 'items') + ' left</span><ul id="filters">';
  $.each(['all', 'active', 'completed'], function (i, name) {
    footer += '<li><a href="#/' + name + '"' + (filter === name ? ' class="selected"' : '') + '>' +
      name.charAt(0).toUpperCase() + name.slice(1) + '</a></li>';
  });
  footer += '</ul>' + (done ? '<button id="clear-completed">Clear completed (' + done + ')</button>' : '');
  $('#footer').html(footer);

  $('#main, #footer').toggle(todos.length > 0);
  $('#toggle-all').prop('checked', left === 0);
  localStorage.setItem('todos-jquery', JSON.stringify(todos));
}

// Enter in #new-todo adds a todo; blank input is ignored.
function create(e) {
  var $input = $(e.target);
  var val = $.trim($input.val());
  if (e.which !== ENTER_KEY || !val) return;
  todos.push({ id: Date.now(), title: val, completed: false });
  $input.val('');
  render();
}

function toggleAll(e) {
  var checked = $(e.target).prop('checked');
  $.each(todos, function (i, t) { t.completed = checked; });
  render();
}

function toggle(e) {
  var i = indexFromEl(e.target);
  todos[i].completed = !todos[i].completed;
  render();
}

// Double click on a title: show the edit field in its place.
function edit(e) {
  var $li = $(e.target).closest('li').addClass('editing');
  var $input = $li.find('.edit');
  $input.val($input.val()).focus();
}

// Enter saves by leaving the field; Escape marks the edit as cancelled, then leaves.
function editKeyup(e) {
  if (e.which === ENTER_KEY) e.target.blur();
  if (e.which === ESCAPE_KEY) $(e.target).data('abort', true).blur();
}

// blur of the edit field: save the title, delete the todo if it is empty, or undo on Escape
function update(e) {
  var $el = $(e.target);
  var val = $.trim($el.val());
  if ($el.data('abort')) {
    $el.data('abort', false);
  } else if (!val) {
    todos.splice(indexFromEl(e.target), 1);
  } else {
    todos[indexFromEl(e.target)].title = val;
  }
  render();
}

function destroy(e) {
  todos.splice(indexFromEl(e.target), 1);
  render();
}

function clearCompleted() {
  todos = todos.filter(function (t) { return !t.completed; });
  render();
}

// #/active and #/completed filter the list, anything else shows all
function route() {
  var hash = window.location.hash.replace(/^#\/?/, '');
  filter = (hash === 'active' || hash === 'completed') ? hash : 'all';
  render();
}

$(function () {
  var stored = localStorage.getItem('todos-jquery');
  todos = stored ? JSON.parse(stored) : [];
  $('#new-todo').on('keyup', create);
  $('#toggle-all').on('change', toggleAll);
  $('#footer').on('click', '#clear-completed', clearCompleted);
  $('#todo-list')
    .on('change', '.toggle', toggle)
    .on('dblclick', 'label', edit)
    .on('keyup', '.edit', editKeyup)
    .on('focusout', '.edit', update)
    .on('click', '.destroy', destroy);
  $(window).on('hashchange', route);
  route();
});
