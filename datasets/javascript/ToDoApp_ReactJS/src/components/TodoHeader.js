import React, { Component } from 'react';
import PropTypes from 'prop-types';

class TodoHeader extends Component {
  constructor(props) {
    super(props);
    this.state = { text: '' };
    this.handleChange = this.handleChange.bind(this);
    this.handleKeyDown = this.handleKeyDown.bind(this);
  }

  handleChange(event) {
    this.setState({ text: event.target.value });
  }

  handleKeyDown(event) {
    if (event.which === 27) {
      this.setState({ text: '' });
      return;
    }
    if (event.which !== 13) {
      return;
    }
    event.preventDefault();
    var text = this.state.text.trim();
    if (text.length > 0) {
      // titles are limited to 140 characters
      this.props.onAdd(text.length > 140 ? text.substring(0, 140) : text);
      this.setState({ text: '' });
    }
  }

  render() {
    return (
      <header className="header">
        <h1>todos</h1>
        <input className="new-todo" placeholder="What needs to be done?" autoFocus={true}
          value={this.state.text} onChange={this.handleChange} onKeyDown={this.handleKeyDown} />
      </header>
    );
  }
}

TodoHeader.propTypes = {
  onAdd: PropTypes.func.isRequired
};

export default TodoHeader;
