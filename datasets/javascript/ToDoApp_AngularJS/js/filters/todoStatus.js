// todos | todoStatus:'active'  ('' or anything else: all todos)
angular.module('todoApp')
  .filter('todoStatus', function () {
    // route status -> the value of todo.completed it shows
    var COMPLETED = {
      active: false,
      completed: true
    };

    return function (todos, status) {
      if (!COMPLETED.hasOwnProperty(status)) return todos;
      return todos.filter(function (todo) {
        return todo.completed === COMPLETED[status];
      });
    };
  });
