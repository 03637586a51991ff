import React, { Component } from 'react';
import ReactDOM from 'react-dom';
import PropTypes from 'prop-types';
import { ENTER_KEY, ESCAPE_KEY } from '../utils';

class TodoItem extends Component {
  constructor(props) {
    super(props);
    this.state = { editText: props.todo.title };
    this.handleDoubleClick = this.handleDoubleClick.bind(this);
    this.handleChange = this.handleChange.bind(this);
    this.handleKeyDown = this.handleKeyDown.bind(this);
    this.handleSubmit = this.handleSubmit.bind(this);
  }

  componentWillReceiveProps(nextProps) {
    if (nextProps.todo.title !== this.props.todo.title) {
      this.setState({ editText: nextProps.todo.title });
    }
  }

  componentDidUpdate(prevProps) {
    if (!prevProps.editing && this.props.editing) {
      var node = ReactDOM.findDOMNode(this.refs.editField);
      node.focus();
      node.setSelectionRange(node.value.length, node.value.length);
    }
  }

  handleDoubleClick() {
    this.setState({ editText: this.props.todo.title });
    this.props.onEdit(this.props.todo);
  }

  handleChange(event) {
    if (this.props.editing) {
      this.setState({ editText: event.target.value });
    }
  }

  handleSubmit() {
    if (!this.props.editing) {
      return;
    }
    var title = this.state.editText.trim();
    if (title) {
      this.props.onSave(this.props.todo, title);
      this.setState({ editText: title });
    } else {
      this.props.onDestroy(this.props.todo);
    }
  }

  handleKeyDown(event) {
    if (event.which === ESCAPE_KEY) {
      this.setState({ editText: this.props.todo.title });
      this.props.onCancel();
    } else if (event.which === ENTER_KEY) {
      this.handleSubmit();
    }
  }

  render() {
    var todo = this.props.todo;
    var classes = [];
    if (todo.completed) classes.push('completed');
    if (this.props.editing) classes.push('editing');

    return (
      <li className={classes.join(' ')}>
        <div className="view">
          <input className="toggle" type="checkbox" checked={todo.completed}
            onChange={() => this.props.onToggle(todo)} />
          <label onDoubleClick={this.handleDoubleClick}>{todo.title}</label>
          <button className="destroy" onClick={() => this.props.onDestroy(todo)} />
        </div>
        <input ref="editField" className="edit" value={this.state.editText}
          onBlur={this.handleSubmit} onChange={this.handleChange} onKeyDown={this.handleKeyDown} />
      </li>
    );
  }
}

TodoItem.propTypes = {
  todo: PropTypes.object.isRequired,
  editing: PropTypes.bool,
  onToggle: PropTypes.func.isRequired,
  onDestroy: PropTypes.func.isRequired,
  onEdit: PropTypes.func.isRequired,
  onSave: PropTypes.func.isRequired,
  onCancel: PropTypes.func.isRequired
};

export default TodoItem;
