/**
 * todoStorage - the list of todos, kept in localStorage as one JSON array under
 * STORAGE_KEY: [{ id: 1, title: 'Buy milk', completed: false, createdAt: 1700000000000 }]
 *
 * The service hands out the same array to everybody and writes all of it on every change.
 */
angular.module('todoApp')
  .factory('todoStorage', ['$window', 'STORAGE_KEY', function ($window, STORAGE_KEY) {
    var todos = [];

    // Nothing stored yet: an empty list. (A value that is not JSON throws here.)
    function read() {
      var stored = $window.localStorage.getItem(STORAGE_KEY);
      if (!stored) return [];
      return JSON.parse(stored);
    }

    function write() {
      $window.localStorage.setItem(STORAGE_KEY, angular.toJson(todos));
    }

    return {
      // Loads the stored list into the shared array and returns that array.
      get: function () {
        todos.length = 0;
        Array.prototype.push.apply(todos, read());
        return todos;
      },

      // New todos go to the end; the id is the creation time in milliseconds.
      insert: function (title) {
        var now = Date.now();
        var todo = {
          id: now,
          title: title,
          completed: false,
          createdAt: now
        };
        todos.push(todo);
        write();
        return todo;
      },

      // the todo object was changed in place by ng-model; just store the list
      put: function () {
        write();
      },

      remove: function (todo) {
        var index = todos.indexOf(todo);
        if (index !== -1) {
          todos.splice(index, 1);
          write();
        }
      },

      // Removes every completed todo, walking backwards so splice keeps the indexes valid.
      clearCompleted: function () {
        for (var i = todos.length - 1; i >= 0; i--) {
          if (todos[i].completed) todos.splice(i, 1);
        }
        write();
      }
    };
  }]);
