// Entry of the pairing page (Templates/pairing.mustache): the only script a device that is not
// paired gets. It loads nothing else of the app.
import { initPairing } from './views/pairing.js';

initPairing(document);
