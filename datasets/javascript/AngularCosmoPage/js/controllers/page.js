/**
 * PageCtrl - the page editor (routes /pages/new and /pages/:pageId).
 *
 * Loads the page into the shared Page factory, keeps a draft of every change in
 * localStorage, and saves the page, its tags and a revision through the REST service.
 * Also duplicates and deletes pages.
 */
cmsApp.controller('PageCtrl', [
  '$scope', '$rootScope', '$routeParams', '$location', '$timeout', '$window', '$filter',
  'REST', 'Page', 'DESCRIPTION_MAX',
  function ($scope, $rootScope, $routeParams, $location, $timeout, $window, $filter,
            REST, Page, DESCRIPTION_MAX) {

  // Fields kept in the local draft, one localStorage key each: draft.<pageId|new>.<field>
  var DRAFT_FIELDS = ['title', 'description', 'url', 'type', 'body', 'publish', 'scheduleDate', 'tags', 'featured'];
  // First URL segments that belong to the application itself
  var RESERVED_URLS = ['admin', 'api', 'login', 'logout', 'files'];
  var autosaveTimer = null;

  // Drafts of a page that has not been saved yet are kept under 'new'
  function draftKey() {
    return Page.id || 'new';
  }

  $scope.page = Page;
  $scope.descriptionMax = DESCRIPTION_MAX;
  $scope.draftFound = false;
  $scope.draftSavedAt = null;
  $scope.dirty = false;
  $scope.saving = false;
  $scope.images = [];
  $scope.showImagePicker = false;
  // The URL follows the title until someone edits it by hand
  $scope.autoURL = true;

  Page.reset();

  if ($routeParams.pageId) {
    REST.pages.get({ pageId: $routeParams.pageId }, function (data) {
      Page.load(data);
      // an existing page keeps its URL unless it still is the slug of its title
      $scope.autoURL = Page.url === $filter('slugify')(Page.title);
      checkDraft();
    }, function () {
      $rootScope.notify('This page could not be loaded', 'error');
      $location.path('/pages');
    });
  } else {
    checkDraft();
  }

  // ---- local drafts --------------------------------------------------------------

  /**
   * Offer the local draft if it was written after the page was last saved on the
   * server. Both times are unix seconds; the draft's comes from the browser's clock.
   */
  function checkDraft() {
    var savedAt = parseInt($window.localStorage.getItem('draft.' + draftKey() + '.savedAt'), 10);
    if (savedAt > Page.modified) {
      $scope.draftFound = true;
      $scope.draftSavedAt = savedAt;
    }
  }

  /** Write every draft field, as JSON, plus the time of writing. */
  function saveDraft() {
    var key = draftKey();
    angular.forEach(DRAFT_FIELDS, function (field) {
      $window.localStorage.setItem('draft.' + key + '.' + field, angular.toJson(Page[field]));
    });
    $window.localStorage.setItem('draft.' + key + '.savedAt', Math.round(new Date().getTime() / 1000));
  }

  /** Remove the draft of a page ('new' for the page that has no id yet). */
  function clearDraft(key) {
    angular.forEach(DRAFT_FIELDS, function (field) {
      $window.localStorage.removeItem('draft.' + key + '.' + field);
    });
    $window.localStorage.removeItem('draft.' + key + '.savedAt');
  }

  /** Called by ng-change on every field: store a draft one second after the last change. */
  $scope.autosave = function () {
    $scope.dirty = true;
    $timeout.cancel(autosaveTimer);
    autosaveTimer = $timeout(saveDraft, 1000);
  };

  /** Copy the local draft into the editor. */
  $scope.restoreDraft = function () {
    var key = draftKey();
    angular.forEach(DRAFT_FIELDS, function (field) {
      var stored = $window.localStorage.getItem('draft.' + key + '.' + field);
      if (stored !== null) {
        Page[field] = angular.fromJson(stored);
      }
    });
    // toJson turned the Date into a string
    if (Page.scheduleDate) {
      Page.scheduleDate = new Date(Page.scheduleDate);
    }
    $scope.autoURL = false;
    $scope.draftFound = false;
    $scope.dirty = true;
  };

  $scope.discardDraft = function () {
    clearDraft(draftKey());
    $scope.draftFound = false;
  };

  // Leaving the site with unsaved changes asks first.
  $window.onbeforeunload = function () {
    if ($scope.dirty) return 'You have unsaved changes.';
  };

  // ---- fields ----------------------------------------------------------------------

  $scope.titleChanged = function () {
    if ($scope.autoURL) {
      Page.url = $filter('slugify')(Page.title);
    }
    $scope.autosave();
  };

  $scope.urlChanged = function () {
    $scope.autoURL = false;
    $scope.autosave();
  };

  /** Show the media library's images to choose the featured image from. */
  $scope.openImagePicker = function () {
    $scope.showImagePicker = true;
    REST.files.query({ type: 'image' }, function (files) {
      $scope.images = files;
    });
  };

  $scope.chooseImage = function (file) {
    Page.featured = {
      src: file.url,
      alt: file.title
    };
    $scope.showImagePicker = false;
    $scope.autosave();
  };

  // ---- saving ----------------------------------------------------------------------

  /**
   * @param {boolean} duplicate    true when a copy of the page is being saved
   * @param {string}  originalUrl  URL of the page the copy is made from
   * @returns {string|null} the message to show, or null when the page can be saved
   */
  function validate(duplicate, originalUrl) {
    if (!Page.title) {
      return 'The page needs a title';
    }
    if (!Page.url) {
      Page.url = $filter('slugify')(Page.title);
    }
    if (RESERVED_URLS.indexOf(Page.url.split('/')[0]) !== -1) {
      return 'The URL "' + Page.url + '" is reserved';
    }
    if (Page.description.length > DESCRIPTION_MAX) {
      return 'The description is longer than ' + DESCRIPTION_MAX + ' characters';
    }
    if (duplicate && Page.url === originalUrl) {
      return 'Give the copy a different URL';
    }
    return null;
  }

  /**
   * The publish state as the server stores it: published 'Y' or 'N' and
   * published_date in unix seconds. A scheduled page is published with a future date;
   * a schedule in the past publishes the page now.
   */
  function publishFields() {
    var now = Math.round(new Date().getTime() / 1000);
    if (Page.publish === 'Y') {
      // keep the original date when an already published page is saved again
      return { published: 'Y', published_date: Page.publishedDate || now };
    }
    if (Page.publish === 'schedule') {
      var date = Math.round(Page.scheduleDate.getTime() / 1000);
      if (date <= now) {
        $rootScope.notify('The scheduled date is in the past, the page is published now', 'warning');
        Page.publish = 'Y';
        date = now;
      }
      return { published: 'Y', published_date: date };
    }
    return { published: 'N', published_date: Page.publishedDate };
  }

  /** The request body for POST /api/pages and PUT /api/pages/:pageId. */
  function pageData() {
    var publish = publishFields();
    var featured = Page.featured || {};
    return {
      title: Page.title,
      description: Page.description,
      url: Page.url,
      type: Page.type,
      body: Page.body,
      published: publish.published,
      published_date: publish.published_date,
      featured_image: featured.src,
      featured_alt: featured.alt,
      author_id: $rootScope.currentUser.id
    };
  }

  /** Tags are replaced: delete them all, then add the current ones one by one. */
  function saveTags(pageId) {
    REST.pageTags.delete({ pageId: pageId }, function () {
      angular.forEach(Page.tags, function (tag) {
        REST.pageTags.save({ pageId: pageId }, { tag: tag });
      });
    });
  }

  /** Every save also stores a revision: a copy of the page as it was sent. */
  function saveRevision(pageId, data) {
    data.page_id = pageId;
    REST.revisions.save(data, function () {
      $rootScope.$broadcast('revisionSaved', pageId);
    });
  }

  function saved(pageId, data, oldKey, message) {
    saveTags(pageId);
    saveRevision(pageId, data);
    clearDraft(oldKey);
    Page.id = pageId;
    Page.publishedDate = data.published_date;
    $scope.dirty = false;
    $scope.saving = false;
    $rootScope.notify(message, 'success');
  }

  function saveFailed(response) {
    $scope.saving = false;
    if (response.status === 409) {
      $rootScope.notify('Another page already uses the URL "' + Page.url + '"', 'error');
    } else {
      $rootScope.notify('The page could not be saved (' + response.status + ')', 'error');
    }
  }

  /**
   * Save button (and Duplicate). A new page or a copy is created with POST and the
   * editor moves to its URL; an existing page is updated with PUT.
   */
  $scope.savePage = function (duplicate) {
    var originalUrl = $scope.originalUrl || Page.url;
    var error = validate(duplicate, originalUrl);
    if (error) {
      $rootScope.notify(error, 'error');
      return;
    }
    var data = pageData();
    var oldKey = draftKey();
    $scope.saving = true;

    if (!Page.id || duplicate) {
      REST.pages.save(data, function (created) {
        saved(created.id, data, oldKey, duplicate ? 'Copy saved' : 'Page created');
        $location.path('/pages/' + created.id);
      }, saveFailed);
    } else {
      REST.pages.update({ pageId: Page.id }, data, function () {
        saved(Page.id, data, oldKey, 'Page saved');
      }, saveFailed);
    }
  };

  /** Duplicate button: ask for the URL of the copy, then save it as a new page. */
  $scope.duplicate = function () {
    $scope.originalUrl = Page.url;
    var url = $window.prompt('URL of the copy', Page.url + '-copy');
    if (!url) return;
    Page.url = $filter('slugify')(url);
    Page.title = Page.title + ' (copy)';
    $scope.savePage(true);
    $scope.originalUrl = null;
  };

  $scope.deletePage = function () {
    if (!$window.confirm('Delete "' + Page.title + '"? This cannot be undone.')) return;
    REST.pages.delete({ pageId: Page.id }, function () {
      clearDraft(Page.id);
      $scope.dirty = false;
      $rootScope.notify('Page deleted', 'success');
      $location.path('/pages');
    });
  };

  $scope.$on('$destroy', function () {
    $timeout.cancel(autosaveTimer);
  });
}]);
