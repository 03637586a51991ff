// Monthly/Yearly switch: every card's price comes from its data-monthly attribute.
(function () {
  'use strict';

  var MONTHS_PER_PAID_YEAR = 10; // a yearly plan costs ten months

  function formatPrice(amount) {
    return '$' + amount;
  }

  function renderPrices(period) {
    var plans = document.querySelectorAll('.plan');
    for (var i = 0; i < plans.length; i++) {
      var monthly = Number(plans[i].getAttribute('data-monthly'));
      var yearly = period === 'yearly';
      plans[i].querySelector('.plan__amount').textContent =
        formatPrice(yearly ? monthly * MONTHS_PER_PAID_YEAR : monthly);
      plans[i].querySelector('.plan__period').textContent = yearly ? '/ year' : '/ month';
    }
  }

  function selectPeriod(event) {
    var chosen = event.target.closest('.billing__option');
    if (!chosen) {
      return;
    }
    var options = document.querySelectorAll('.billing__option');
    for (var i = 0; i < options.length; i++) {
      var active = options[i] === chosen;
      options[i].classList.toggle('is-active', active);
      options[i].setAttribute('aria-pressed', String(active));
    }
    renderPrices(chosen.getAttribute('data-period'));
  }

  document.querySelector('.billing').addEventListener('click', selectPeriod);
  renderPrices('monthly');
})();
