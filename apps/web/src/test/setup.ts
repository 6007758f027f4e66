// jsdom implements no scrolling; the app calls scrollTo on every route change.
window.scrollTo = () => {};
