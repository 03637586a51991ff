import React from 'react';
import PropTypes from 'prop-types';
import { pluralize } from '../utils';

function TodoFooter(props) {
  var filters = ['all', 'active', 'completed'];

  return (
    <footer className="footer">
      <span className="todo-count">
        <strong>{props.activeCount}</strong> {pluralize(props.activeCount, 'item')} left
      </span>
      <ul className="filters">
        {filters.map(function (name) {
          return (
            <li key={name}>
              <a
                href={name === 'all' ? '#/' : '#/' + name}
                className={props.filter === name ? 'selected' : ''}
              >
                {name.charAt(0).toUpperCase() + name.slice(1)}
              </a>
            </li>
          );
        })}
      </ul>
      {props.completedCount > 0 ? (
        <button className="clear-completed" onClick={props.onClearCompleted}>
          Clear completed ({props.completedCount})
        </button>
      ) : null}
    </footer>
  );
}

TodoFooter.propTypes = {
  activeCount: PropTypes.number.isRequired,
  completedCount: PropTypes.number.isRequired,
  filter: PropTypes.string.isRequired,
  onClearCompleted: PropTypes.func.isRequired
};

export default TodoFooter;
