// <input todo-focus="expression">: focuses the input when the expression becomes true.
angular.module('todoApp')
  .directive('todoFocus', ['$timeout', function ($timeout) {
    return function (scope, element, attrs) {
      scope.$watch(attrs.todoFocus, function (newValue) {
        if (newValue) {
          // wait until ng-class has shown the edit field
          $timeout(function () {
            element[0].focus();
          }, 0, false);
        }
      });
    };
  }]);
