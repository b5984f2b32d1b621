/*
 * The product page's pictures (views/shop/product.hbs): a thumbnail or the chosen variant brings its picture to the
 * main place, and the main picture opens its largest size in a dialog (Escape or the button closes it, and focus
 * goes back to the picture). Without this script every picture is still shown and each links to its file.
 */
(function () {
  'use strict';

  var main = document.querySelector('[data-gallery-main]');
  if (!main) return;
  var zoomLink = document.querySelector('[data-gallery-zoom]');
  var thumbs = Array.prototype.slice.call(document.querySelectorAll('[data-gallery-thumb]'));

  function show(thumb) {
    // A stored picture has its sizes in a srcset, which the browser prefers to src.
    main.srcset = thumb.getAttribute('data-srcset') || '';
    main.src = thumb.getAttribute('href');
    main.alt = thumb.querySelector('img').alt;
    zoomLink.href = thumb.getAttribute('data-large') || thumb.getAttribute('href');
    thumbs.forEach(function (other) {
      other.removeAttribute('aria-current');
    });
    thumb.setAttribute('aria-current', 'true');
  }

  thumbs.forEach(function (thumb) {
    thumb.addEventListener('click', function (event) {
      event.preventDefault();
      show(thumb);
    });
  });

  // ---- the chosen variant's picture -----------------------------------------------------------------------

  var optionSelects = Array.prototype.slice.call(document.querySelectorAll('[data-product-option]'));
  optionSelects.forEach(function (select) {
    select.addEventListener('change', function () {
      // The key product.hbs gives each variant's pictures: the option values in the options' order.
      var key = optionSelects
        .map(function (option) {
          return option.value;
        })
        .join('|');
      var thumb = thumbs.find(function (candidate) {
        return candidate.getAttribute('data-variant') === key;
      });
      if (thumb) show(thumb);
    });
  });

  // ---- zoom -----------------------------------------------------------------------------------------------

  var dialog = document.querySelector('[data-zoom-dialog]');
  if (!dialog || typeof dialog.showModal !== 'function') return; // the link opens the picture itself
  var zoomImage = dialog.querySelector('[data-zoom-image]');
  zoomLink.addEventListener('click', function (event) {
    event.preventDefault();
    zoomImage.src = zoomLink.getAttribute('href');
    zoomImage.alt = main.alt;
    dialog.showModal();
  });
  dialog.querySelector('[data-zoom-close]').addEventListener('click', function () {
    dialog.close();
  });
  // A click on the backdrop (the dialog element itself, outside its content) closes it too.
  dialog.addEventListener('click', function (event) {
    if (event.target === dialog) dialog.close();
  });
  dialog.addEventListener('close', function () {
    zoomLink.focus();
  });
})();
