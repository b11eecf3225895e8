"""The app's routes, one router per part: the game, the solver, the rules and the deal
of the day, the pages. Each router is built around the app's
:class:`~eightoff.web.service.GameService`."""
