"""Um cliente da API de bots do Tabuleiro, só com a biblioteca padrão.

A client of Tabuleiro's bot API, standard library only (urllib, json,
threading): no pip needed. See docs/bots-api.md.

    import tabuleiro
    bot = tabuleiro.Bot("http://localhost:8080", "<the bot's token>")
    bot.joga(escolhe_jogada)        # plays every game it is seated in

escolhe_jogada(estado) gets the room.state (a dict: "board", "legal",
"turn", "players", ...) whenever it is the bot's turn and returns a move, one
of estado["legal"].
"""

import json
import threading
import urllib.error
import urllib.parse
import urllib.request

# How long a stream may stay silent: the server sends an empty line every
# 10 s, so a minute without one means the connection is gone.
STREAM_TIMEOUT = 60


class ErroAPI(Exception):
    """An error answer of the server: .status (HTTP), .code, .message."""

    def __init__(self, status, code, message):
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message


def _request(method, url, token=None, body=None, timeout=30):
    data = None
    headers = {"Accept": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        return urllib.request.urlopen(req, timeout=timeout)
    except urllib.error.HTTPError as e:
        try:
            err = json.load(e).get("error", {})
        except ValueError:
            err = {}
        raise ErroAPI(e.code, err.get("code", ""), err.get("message", e.reason)) from None


def registra(servidor, token_jogador, nome):
    """Registers a bot for the player whose token is token_jogador; returns
    (id, token) of the bot. Keep the token: it is shown only this once."""
    with _request("POST", servidor.rstrip("/") + "/api/bots", token_jogador, {"name": nome}) as r:
        j = json.load(r)
    return j["id"], j["token"]


def _linhas(resp):
    """The objects of an NDJSON answer, skipping the heartbeat's empty lines."""
    with resp:
        for line in resp:
            line = line.strip()
            if line:
                yield json.loads(line)


class Bot:
    """A bot account: its server and token."""

    def __init__(self, servidor, token):
        self.servidor = servidor.rstrip("/")
        self.token = token
        with _request("GET", self.servidor + "/api/bot/account", token) as r:
            me = json.load(r)
        self.id, self.nome = me["id"], me["name"]

    def eventos(self):
        """The bot's events, as they come: {"type": "gameStart"|"gameFinish", "room": ...}."""
        return _linhas(_request("GET", self.servidor + "/api/bot/stream/event", self.token, timeout=STREAM_TIMEOUT))

    def estados(self, sala):
        """The room's states, the first one full, until the game is over."""
        url = f"{self.servidor}/api/bot/game/{urllib.parse.quote(sala, safe='')}/stream"
        return _linhas(_request("GET", url, self.token, timeout=STREAM_TIMEOUT))

    def joga_lance(self, sala, lance):
        """Plays a move; raises ErroAPI when the server refuses it."""
        url = f"{self.servidor}/api/bot/game/{urllib.parse.quote(sala, safe='')}/move/{urllib.parse.quote(lance, safe='')}"
        _request("POST", url, self.token).close()

    def desiste(self, sala):
        """Resigns the game."""
        _request("POST", f"{self.servidor}/api/bot/game/{urllib.parse.quote(sala, safe='')}/resign", self.token).close()

    def assento(self, estado):
        """The bot's seat in a room.state, or None."""
        for p in estado.get("players", []):
            if p.get("id") == self.id:
                return p["seat"]
        return None

    def joga_partida(self, sala, escolhe_jogada):
        """Plays one game to its end; returns its last state."""
        ultimo = None
        for estado in self.estados(sala):
            ultimo = estado
            eu = self.assento(estado)
            if estado.get("status") != "playing" or eu is None or estado.get("turn") != eu or not estado.get("legal"):
                continue
            lance = escolhe_jogada(estado)
            try:
                self.joga_lance(sala, lance)
            except ErroAPI as e:
                # An illegal move changes nothing and the clock runs on;
                # not_your_turn comes from a state already overtaken.
                if e.code != "not_your_turn":
                    print(f"{sala}: {lance!r} recusado: {e}", flush=True)
        return ultimo

    def joga(self, escolhe_jogada, partidas=None):
        """Plays every game the bot is seated in, each on a thread of its
        own, as the event stream tells of them; returns after `partidas`
        games have finished (never, when None)."""
        feitas, vistas, fios = 0, set(), []
        for ev in self.eventos():
            sala = ev.get("room")
            if ev.get("type") == "gameStart" and sala not in vistas:
                vistas.add(sala)
                fio = threading.Thread(target=self._partida, args=(sala, escolhe_jogada), daemon=True)
                fio.start()
                fios = [f for f in fios if f.is_alive()] + [fio]
            elif ev.get("type") == "gameFinish":
                vistas.discard(sala)  # only games going on are kept
                feitas += 1
                if partidas is not None and feitas >= partidas:
                    for f in fios:  # their games' last states
                        f.join(STREAM_TIMEOUT)
                    return

    def _partida(self, sala, escolhe_jogada):
        try:
            fim = self.joga_partida(sala, escolhe_jogada)
            if fim and fim.get("result") is not None:
                print(f"{sala}: fim, {json.dumps(fim['result'])}", flush=True)
        except (ErroAPI, OSError, ValueError) as e:
            print(f"{sala}: {e}", flush=True)
