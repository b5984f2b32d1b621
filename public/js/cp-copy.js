// "Copy" buttons of the control panel: a button with data-copy-from="<id>" copies that field's text.
// A file, not inline script: the CSP allows scripts from this origin only.
(function () {
  'use strict';

  function selectAndCopy(field) {
    field.focus();
    field.select();
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(field.value);
    // Plain-http shops have no Clipboard API; the deprecated command still works there.
    return document.execCommand('copy') ? Promise.resolve() : Promise.reject(new Error('copy refused'));
  }

  document.querySelectorAll('button[data-copy-from]').forEach(function (button) {
    var label = button.textContent;
    button.addEventListener('click', function () {
      var field = document.getElementById(button.getAttribute('data-copy-from'));
      if (!field) return;
      selectAndCopy(field).then(
        function () {
          button.textContent = button.getAttribute('data-copied-text') || 'Copied';
          setTimeout(function () {
            button.textContent = label;
          }, 2000);
        },
        function () {
          // The text stays selected: the user can copy it with the keyboard.
          button.textContent = 'Press Ctrl+C (⌘C) to copy';
        },
      );
    });
  });
})();
