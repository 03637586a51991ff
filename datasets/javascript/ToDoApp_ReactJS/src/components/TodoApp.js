import React, { Component } from 'react';
import TodoHeader from './TodoHeader';
import TodoList from './TodoList';
import TodoFooter from './TodoFooter';
import { makeId, loadTodos, saveTodos, readFilter } from '../utils';

const STORAGE_KEY = 'todos-reactjs';

class TodoApp extends Component {
  constructor(props) {
    super(props);
    this.state = { todos: [], filter: 'all', editingId: null };
    this.toggleAll = this.toggleAll.bind(this);
    this.clearCompleted = this.clearCompleted.bind(this);
    this.onHashChange = this.onHashChange.bind(this);
  }

  componentDidMount() {
    this.setState({ todos: loadTodos(STORAGE_KEY) });
    this.onHashChange();
    window.addEventListener('hashchange', this.onHashChange);
  }

  componentDidUpdate() {
    // keep localStorage in sync with the list
    saveTodos(STORAGE_KEY, this.state.todos);
  }

  onHashChange() {
    this.setState({ filter: readFilter(window.location.hash) });
  }

  addTodo = (text) => {
    var todos = this.state.todos;
    todos.push({ id: makeId(), title: text, completed: false });
    this.setState({ todos: todos });
  };

  toggle = (todo) => {
    todo.completed = !todo.completed;
    this.setState({ todos: this.state.todos });
  };

  toggleAll(event) {
    var checked = event.target.checked;
    var todos = this.state.todos.map(function (todo) {
      return todo.completed === checked ? todo : Object.assign({}, todo, { completed: checked });
    });
    this.setState({ todos: todos });
  }

  destroy = (todo) => {
    var editingId = this.state.editingId === todo.id ? null : this.state.editingId;
    this.setState({ todos: this.state.todos.filter((t) => t !== todo), editingId: editingId });
  };

  edit = (todo) => {
    this.setState({ editingId: todo.id });
  };

  save = (todo, title) => {
    var todos = this.state.todos.map((t) => (t === todo ? Object.assign({}, t, { title: title }) : t));
    this.setState({ todos: todos, editingId: null });
  };

  cancel = () => {
    this.setState({ editingId: null });
  };

  clearCompleted() {
    this.setState({ todos: this.state.todos.filter((todo) => !todo.completed) });
    document.querySelector('.new-todo').focus();
  }

  render() {
    var todos = this.state.todos;
    var activeCount = 0;
    for (var i = 0; i < todos.length; i++) {
      if (!todos[i].completed) activeCount++;
    }
    var completedCount = todos.length - activeCount;

    return (
      <div>
        <TodoHeader onAdd={this.addTodo} />
        {todos.length > 0 && (
          <section className="main">
            <input id="toggle-all" className="toggle-all" type="checkbox"
              onChange={this.toggleAll} checked={activeCount === 0} />
            <label htmlFor="toggle-all">Mark all as complete</label>
            <TodoList todos={todos} filter={this.state.filter} editingId={this.state.editingId}
              onToggle={this.toggle} onDestroy={this.destroy} onEdit={this.edit}
              onSave={this.save} onCancel={this.cancel} />
          </section>
        )}
        {(activeCount > 0 || completedCount > 0) && (
          <TodoFooter activeCount={activeCount} completedCount={completedCount}
            filter={this.state.filter} onClearCompleted={this.clearCompleted} />
        )}
      </div>
    );
  }
}

export default TodoApp;
