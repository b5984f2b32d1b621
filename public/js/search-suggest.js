/*
 * Suggestions under the header's search field (views/partials/site-header.hbs) from /shop/catalog/suggest, as an
 * ARIA combobox: Up/Down move through the list, Enter opens the chosen suggestion, Escape closes the list, and a
 * live region says how many there are. Without this script (or with nothing chosen) the form searches as usual.
 */
(function () {
  'use strict';

  var DEBOUNCE_MS = 150;
  var MIN_LENGTH = 2;

  var input = document.getElementById('site-search-q');
  var list = document.getElementById('site-search-suggestions');
  var status = document.getElementById('site-search-status');
  if (!input || !list || !status || !window.fetch || !window.AbortController) return;

  var timer = null;
  var pending = null;
  var options = [];
  var active = -1;

  input.setAttribute('role', 'combobox');
  input.setAttribute('aria-autocomplete', 'list');
  input.setAttribute('aria-expanded', 'false');
  input.setAttribute('aria-controls', list.id);

  function close() {
    list.hidden = true;
    input.setAttribute('aria-expanded', 'false');
    input.removeAttribute('aria-activedescendant');
    active = -1;
  }

  function choose(index) {
    if (options[index]) options[index].element.setAttribute('aria-selected', 'false');
    active = index;
    if (index < 0) {
      input.removeAttribute('aria-activedescendant');
      return;
    }
    var option = options[index].element;
    option.setAttribute('aria-selected', 'true');
    input.setAttribute('aria-activedescendant', option.id);
    option.scrollIntoView({ block: 'nearest' });
  }

  function option(index, text, note, url, image) {
    var item = document.createElement('li');
    item.id = 'site-search-option-' + index;
    item.setAttribute('role', 'option');
    item.setAttribute('aria-selected', 'false');
    if (image) {
      var picture = document.createElement('img');
      picture.src = image;
      picture.alt = '';
      picture.width = 40;
      picture.height = 40;
      item.appendChild(picture);
    }
    var name = document.createElement('span');
    name.className = 'suggestion-name';
    name.textContent = text;
    item.appendChild(name);
    if (note) {
      var extra = document.createElement('span');
      extra.className = 'suggestion-note';
      extra.textContent = note;
      item.appendChild(extra);
    }
    // mousedown, not click: the field keeps focus, so its blur does not close the list first.
    item.addEventListener('mousedown', function (event) {
      event.preventDefault();
      window.location.assign(url);
    });
    return { element: item, url: url };
  }

  function show(body) {
    list.textContent = '';
    options = [];
    active = -1;
    body.products.forEach(function (product) {
      options.push(option(options.length, product.name, product.price, product.url, product.image));
    });
    body.categories.forEach(function (category) {
      options.push(option(options.length, category.name, input.dataset.suggestCategory, category.url, null));
    });
    options.forEach(function (entry) {
      list.appendChild(entry.element);
    });
    status.textContent = options.length
      ? input.dataset.suggestCount.replace('{count}', String(options.length))
      : input.dataset.suggestNone;
    if (options.length === 0) {
      close();
      return;
    }
    list.hidden = false;
    input.setAttribute('aria-expanded', 'true');
    input.removeAttribute('aria-activedescendant');
  }

  function load() {
    var query = input.value.trim();
    if (pending) pending.abort();
    if (query.length < MIN_LENGTH) {
      pending = null;
      close();
      return;
    }
    var request = new AbortController();
    pending = request;
    fetch('/shop/catalog/suggest?q=' + encodeURIComponent(query), {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
      signal: request.signal,
    })
      .then(function (res) {
        if (!res.ok) throw new Error('HTTP ' + res.status);
        return res.json();
      })
      .then(function (body) {
        if (pending === request && document.activeElement === input) show(body);
      })
      .catch(function () {
        // Aborted by a newer request, or the shop is unreachable: the form still searches.
      });
  }

  input.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(load, DEBOUNCE_MS);
  });

  input.addEventListener('keydown', function (event) {
    var open = !list.hidden && options.length > 0;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!open) {
        if (options.length > 0 && input.value.trim().length >= MIN_LENGTH) {
          list.hidden = false;
          input.setAttribute('aria-expanded', 'true');
        }
        event.preventDefault();
        return;
      }
      event.preventDefault();
      // Past either end the field itself is active again (-1), as in the ARIA combobox pattern.
      var next = active + (event.key === 'ArrowDown' ? 1 : -1);
      choose(next >= options.length ? -1 : next < -1 ? options.length - 1 : next);
    } else if (event.key === 'Enter' && open && active >= 0) {
      event.preventDefault();
      window.location.assign(options[active].url);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      close();
    }
  });

  input.addEventListener('blur', close);
})();
