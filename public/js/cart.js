/*
 * The cart page (views/shop/cart/page.hbs) without full page loads: its forms (quantity, remove, move to
 * wishlist, coupon, share link) work as plain posts; this script sends them as AJAX instead, then redraws the
 * cart from the page itself, says what happened and has the header's mini-cart count reloaded (shop.js).
 */
(function () {
  'use strict';

  var root = document.getElementById('cart-page');
  if (!root) return;
  var failed = root.dataset.failed;
  var busy = false;

  root.addEventListener('submit', function (event) {
    var form = event.target;
    if (!form.hasAttribute('data-cart-form')) return;
    event.preventDefault();
    if (!busy) send(form);
  });

  root.addEventListener('click', function (event) {
    var button = event.target.closest('[data-copy]');
    if (button) copy(button);
  });

  function send(form) {
    busy = true;
    var focused = document.activeElement && document.activeElement.id;
    fetch(form.action, {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Requested-With': 'XMLHttpRequest',
      },
      body: new URLSearchParams(new FormData(form)),
    })
      .then(answer)
      .then(function (body) {
        return redraw().then(function () {
          restoreFocus(focused);
          say(body.message || form.dataset.done || '', false);
          document.dispatchEvent(new CustomEvent('shop:cart-changed'));
        });
      })
      .catch(function (error) {
        say((error && error.message) || failed, true);
      })
      .then(function () {
        busy = false;
      });
  }

  function answer(response) {
    return response
      .json()
      .catch(function () {
        return { success: false };
      })
      .then(function (body) {
        if (!response.ok || body.success === false) throw body.error || { message: null };
        return body;
      });
  }

  /** Replaces the cart with the one the server renders now: one template for both ways of using the page. */
  function redraw() {
    return fetch(window.location.pathname, { credentials: 'same-origin', headers: { Accept: 'text/html' } })
      .then(function (response) {
        if (!response.ok) throw { message: null };
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, 'text/html').getElementById('cart-page');
        if (!fresh) throw { message: null };
        root.replaceChildren.apply(root, Array.from(fresh.childNodes));
        revealCopyButtons();
      });
  }

  /** Keeps the keyboard where it was (the same field or button), else on the heading. */
  function restoreFocus(id) {
    var target = (id && document.getElementById(id)) || document.getElementById('cart-heading');
    if (target) target.focus();
  }

  function say(text, isError) {
    var message = document.getElementById('cart-message');
    if (!message || !text) return;
    message.textContent = text;
    message.className = 'flash cart-message' + (isError ? ' flash-error' : '');
    message.setAttribute('role', isError ? 'alert' : 'status');
    message.hidden = false;
  }

  function copy(button) {
    var field = document.getElementById(button.dataset.copy);
    if (!field || !navigator.clipboard) return;
    navigator.clipboard.writeText(field.value).then(
      function () {
        say(button.dataset.copied, false);
      },
      function () {
        field.select();
      },
    );
  }

  /** Copy buttons need the clipboard API; without it the link stays selectable text. */
  function revealCopyButtons() {
    if (!navigator.clipboard) return;
    root.querySelectorAll('[data-copy]').forEach(function (button) {
      button.hidden = false;
    });
  }

  revealCopyButtons();
})();
