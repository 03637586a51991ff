import React from 'react';
import TodoItem from './TodoItem';

function TodoList(props) {
  var visible = props.todos.filter(function (todo) {
    if (props.filter === 'active') {
      return !todo.completed;
    } else if (props.filter === 'completed') {
      return todo.completed;
    }
    return true;
  });

  return (
    <ul className="todo-list">
      {visible.map((todo, index) => (
        <TodoItem key={index} todo={todo} editing={props.editingId === todo.id}
          onToggle={props.onToggle} onDestroy={props.onDestroy} onEdit={props.onEdit}
          onSave={props.onSave} onCancel={props.onCancel} />
      ))}
    </ul>
  );
}

export default TodoList;
