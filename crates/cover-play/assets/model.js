// cover play: the game as a model, without the page (filled in next).
"use strict";
