/**
 * TodoCtrl - the whole list: add, toggle, edit in place, remove, clear completed and the
 * counters. The status filter comes from the route: '', 'active' or 'completed'.
 */
angular.module('todoApp')
  .controller('TodoCtrl', ['$scope', '$routeParams', '$filter', 'todoStorage',
    function ($scope, $routeParams, $filter, todoStorage) {
      // The storage's own array: changing it changes what the next write() stores.
      var todos = $scope.todos = todoStorage.get();

      $scope.newTitle = '';
      $scope.editedTodo = null;
      $scope.originalTodo = null;
      $scope.saveEvent = null;

      // Counters and the toggle-all checkbox follow the list, whatever changed it.
      $scope.$watch('todos', function () {
        $scope.remainingCount = $filter('filter')(todos, { completed: false }).length;
        $scope.completedCount = todos.length - $scope.remainingCount;
        $scope.allChecked = !$scope.remainingCount;
      }, true);

      // #!/active -> 'active'; #!/ -> ''
      $scope.$on('$routeChangeSuccess', function () {
        $scope.status = $routeParams.status || '';
      });

      // Enter in the new-todo field. Blank titles are ignored, the text is trimmed.
      $scope.addTodo = function () {
        var title = $scope.newTitle.trim();
        if (!title) {
          return;
        }
        todoStorage.insert(title);
        $scope.newTitle = '';
      };

      // The checkbox already changed todo.completed through ng-model.
      $scope.toggleCompleted = todoStorage.put;

      // The toggle-all checkbox: every todo, visible or not, gets the same state.
      $scope.markAll = function (completed) {
        todos.forEach(function (todo) {
          todo.completed = completed;
        });
        todoStorage.put();
      };

      // The x button of a todo and the "Clear completed" button.
      $scope.removeTodo = todoStorage.remove;

      $scope.clearCompleted = todoStorage.clearCompleted;

      // Double click: remember the todo as it was, so Escape can bring it back.
      $scope.editTodo = function (todo) {
        $scope.editedTodo = todo;
        $scope.originalTodo = angular.extend({}, todo);
      };

      // Enter submits the form and then the field loses focus: both call this, and only
      // the first one must count. An emptied title removes the todo.
      $scope.saveEdits = function (todo, event) {
        if (event === 'blur' && $scope.saveEvent === 'submit') {
          $scope.saveEvent = null;
          return;
        }
        $scope.saveEvent = event;

        if ($scope.reverted) {
          // Escape already put the old title back
          $scope.reverted = null;
          return;
        }

        todo.title = todo.title.trim();
        if (todo.title === $scope.originalTodo.title) {
          $scope.editedTodo = null;
          return;
        }

        if (todo.title) {
          todoStorage.put(todo);
        } else {
          todoStorage.remove(todo);
        }
        $scope.editedTodo = null;
      };

      // Escape: undo the edit and leave the field without saving.
      $scope.revertEdits = function (todo) {
        todos[todos.indexOf(todo)] = $scope.originalTodo;
        $scope.editedTodo = null;
        $scope.originalTodo = null;
        $scope.reverted = true;
      };
    }]);
