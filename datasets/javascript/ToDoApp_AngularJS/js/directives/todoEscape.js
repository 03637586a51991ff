// <input todo-escape="expression">: evaluates the expression when Escape is pressed.
angular.module('todoApp')
  .directive('todoEscape', function () {
    var ESCAPE_KEY = 27;
    return function (scope, element, attrs) {
      element.bind('keydown', function (event) {
        if (event.keyCode === ESCAPE_KEY) {
          scope.$apply(attrs.todoEscape);
        }
      });
    };
  });
