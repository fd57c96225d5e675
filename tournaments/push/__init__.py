"""Live screens by push, polling as the fallback: a change committed anywhere
(a move, a bot's move in the worker, the clock) reaches the phones and the
spectator view showing it within a fraction of a second.

- ``bus``: the cross-process signal (Redis pub/sub, or datagrams on the
  laptop's loopback);
- ``hub``: one per web process, its open streams and the fan-out;
- ``redraw``: each stream's new screen, built in a push thread;
- ``views`` and ``urls``: the Server-Sent Events streams;
- ``tournaments/static/js/push.js``: the browser's side.
"""
