#!/usr/bin/env python3
"""Um cliente da API de bots do Tabuleiro, só com a biblioteca padrão.

A client of Tabuleiro's bot API, standard library only (urllib, json,
threading): no pip needed. See docs/bots-api.md.

Como módulo / as a module:

    import tabuleiro
    bot = tabuleiro.Bot("http://localhost:8080", "<the bot's token>")
    bot.joga(escolhe_jogada)        # plays every game it is seated in

escolhe_jogada(estado) gets the room.state (a dict: "board", "legal",
"turn", "players", ...) whenever it is the bot's turn and returns a move, one
of estado["legal"].

Como programa / as a program (docs/bots-api.md, "O seu projeto como bot"):

    python3 tabuleiro.py projeto aluno.py --jogo orbito --estrategia normal \\
        --servidor URL --token TOKEN_DO_BOT
    python3 tabuleiro.py torneio --jogo orbito --variante 2 --partidas 1 \\
        --servidor URL --jogador TOKEN_DO_PROFESSOR a.py:normal b.py:facil --nivel normal
    python3 tabuleiro.py escada --jogo orbito --variante 2 --servidor URL --token TOKEN_DO_BOT \\
        [--projeto aluno.py --estrategia normal]

The file a student handed in plays as it is, through the assignment's own
functions (its constructors build the position, its escolhe_movimento_auto,
obter_movimento_auto or player function chooses, its posicao_para_str reads
the answer back), whatever its internal representation.
"""

import argparse
import ctypes
import hashlib
import importlib.util
import inspect
import io
import json
import os
import random
import sys
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

# How long a stream may stay silent: the server sends an empty line every
# 10 s, so a minute without one means the connection is gone.
STREAM_TIMEOUT = 60

# What the server keeps of a move's info (rooms.MaxInfoBytes).
INFO_MAX = 200


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


def _json(method, url, token=None, body=None):
    with _request(method, url, token, body) as r:
        return json.load(r)


def registra(servidor, token_jogador, nome, turma=False):
    """Registers a bot for the player whose token is token_jogador; returns
    (id, token) of the bot. Keep the token: it is shown only this once.
    turma=True registers a class's bot (counted apart, a larger cap)."""
    corpo = {"name": nome}
    if turma:
        corpo["turma"] = True
    j = _json("POST", servidor.rstrip("/") + "/api/bots", token_jogador, corpo)
    return j["id"], j["token"]


def _linhas(resp):
    """The objects of an NDJSON answer, skipping the heartbeat's empty lines."""
    with resp:
        for line in resp:
            line = line.strip()
            if line:
                yield json.loads(line)


def _sala(sala):
    return urllib.parse.quote(sala, safe="")


class Bot:
    """A bot account: its server and token."""

    def __init__(self, servidor, token):
        self.servidor = servidor.rstrip("/")
        self.token = token
        me = _json("GET", self.servidor + "/api/bot/account", token)
        self.id, self.nome = me["id"], me["name"]

    def eventos(self):
        """The bot's events, as they come: {"type": "gameStart"|"gameFinish", "room": ...}."""
        return _linhas(_request("GET", self.servidor + "/api/bot/stream/event", self.token, timeout=STREAM_TIMEOUT))

    def estados(self, sala):
        """The room's states, the first one full, until the game is over."""
        url = f"{self.servidor}/api/bot/game/{_sala(sala)}/stream"
        return _linhas(_request("GET", url, self.token, timeout=STREAM_TIMEOUT))

    def joga_lance(self, sala, lance, info=None):
        """Plays a move, with info (a short text kept in the game's record and
        shown to the bot's owner); raises ErroAPI when the server refuses it."""
        url = f"{self.servidor}/api/bot/game/{_sala(sala)}/move/{urllib.parse.quote(lance, safe='')}"
        _request("POST", url, self.token, {"info": info} if info else None).close()

    def desiste(self, sala, razao=None, info=None):
        """Resigns the game; razao="bot_error" when the bot's program failed,
        with info saying what failed."""
        corpo = {k: v for k, v in (("reason", razao), ("info", info)) if v}
        _request("POST", f"{self.servidor}/api/bot/game/{_sala(sala)}/resign", self.token, corpo or None).close()

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
        self.segue(lambda sala: self._partida(sala, escolhe_jogada), partidas)

    def segue(self, partida, partidas=None, ligado=None):
        """Calls partida(sala) on a thread of its own for every game the bot
        is seated in, as the event stream tells of them (again after a lost
        connection); returns after `partidas` games have finished (never,
        when None). ligado, an Event, is set once the stream is open."""
        feitas, acabadas, fios = 0, set(), {}
        self.fios = fios  # the games under way (escada waits for them)
        while True:
            try:
                evs = self.eventos()  # the stream is open once this returns
                if ligado is not None:
                    ligado.set()
                for ev in evs:
                    sala = ev.get("room")
                    if ev.get("type") == "gameStart" and sala not in acabadas and not (sala in fios and fios[sala].is_alive()):
                        fio = threading.Thread(target=partida, args=(sala,), daemon=True)
                        fio.start()
                        for s in [s for s, f in fios.items() if not f.is_alive()]:
                            del fios[s]
                        fios[sala] = fio
                    elif ev.get("type") == "gameFinish" and sala not in acabadas:
                        acabadas.add(sala)
                        feitas += 1
                        if partidas is not None and feitas >= partidas:
                            for f in fios.values():  # their games' last states
                                f.join(STREAM_TIMEOUT)
                            return
            except (ErroAPI, OSError, ValueError) as e:
                _diz(f"{self.nome}: a ligação caiu ({e}); de novo dentro de 2 s")
            time.sleep(2)

    def _partida(self, sala, escolhe_jogada):
        try:
            fim = self.joga_partida(sala, escolhe_jogada)
            if fim and fim.get("result") is not None:
                print(f"{sala}: fim, {json.dumps(fim['result'])}", flush=True)
        except (ErroAPI, OSError, ValueError) as e:
            print(f"{sala}: {e}", flush=True)


# ---------------------------------------------------------------- output

_consola = sys.stdout
_diz_lock = threading.Lock()


def _diz(texto):
    """Prints a whole block to the console, never interleaved with another
    thread's (the students' prints are captured apart)."""
    with _diz_lock:
        _consola.write(texto.rstrip("\n") + "\n")
        _consola.flush()


class _SaidaPorFio(io.TextIOBase):
    """sys.stdout while projects play: what a project prints during one of
    its calls goes to that call's buffer; anything else to the console."""

    def __init__(self):
        self.local = threading.local()

    def write(self, s):
        buf = getattr(self.local, "buf", None)
        if buf is not None:
            buf.write(s)
        else:
            with _diz_lock:
                _consola.write(s)
        return len(s)

    def flush(self):
        if getattr(self.local, "buf", None) is None:
            _consola.flush()


_saida = _SaidaPorFio()


def _instala_saida():
    """Students' prints captured per call, and no input(): a project that
    asks for input gets EOFError, never the terminal."""
    sys.stdout = _saida
    sys.stdin = io.StringIO("")


# ---------------------------------------------------------------- running a project's code


class _TempoEsgotado(BaseException):
    """Raised inside a project's call that took too long (a BaseException,
    so that a project's `except Exception` does not catch it)."""


class FalhaProjeto(Exception):
    """A project's call failed: .texto is what the student sees (the
    traceback, or what went wrong), .resumo one line for the record."""

    def __init__(self, texto, resumo):
        super().__init__(resumo)
        self.texto, self.resumo = texto, resumo


def _do_projeto(f):
    """Whether a traceback's frame is the project's (not this file's, nor
    the import machinery's)."""
    return os.path.abspath(f.filename) != os.path.abspath(__file__) and not f.filename.startswith("<frozen ")


def _traceback_do_projeto(e):
    """The traceback of e without the frames of this file."""
    tb = [f for f in traceback.extract_tb(e.__traceback__) if _do_projeto(f)]
    linhas = ["Traceback (most recent call last):\n"] + traceback.format_list(tb)
    texto = "".join(linhas + traceback.format_exception_only(type(e), e)).rstrip()
    if isinstance(e, EOFError):
        texto += "\n(o projeto pediu input(): a jogar no Tabuleiro não há teclado)"
    return texto


def _resumo(e):
    """One line naming the exception and where the project raised it."""
    linha = traceback.format_exception_only(type(e), e)[-1].strip()
    for f in reversed(traceback.extract_tb(e.__traceback__)):
        if _do_projeto(f):
            return f"{linha} ({os.path.basename(f.filename)}, linha {f.lineno})"
    return linha


def corre(f, limite):
    """Runs f() (a project's code) on a thread of its own, at most limite
    seconds: returns (its value, milliseconds, what it printed) or raises
    FalhaProjeto (an exception, or too long: the call is interrupted)."""
    caixa = {}

    def alvo():
        buf = io.StringIO()
        _saida.local.buf = buf
        t0 = time.perf_counter()
        try:
            caixa["valor"] = f()
        except _TempoEsgotado:
            pass
        except BaseException as e:  # noqa: B902 - a project may raise anything, SystemExit included
            caixa["erro"] = e
        finally:
            caixa["ms"] = (time.perf_counter() - t0) * 1000
            _saida.local.buf = None
            caixa["impresso"] = buf.getvalue()

    fio = threading.Thread(target=alvo, daemon=True)
    fio.start()
    fio.join(limite)
    if fio.is_alive():
        # Interrupt it: the next bytecode it runs raises _TempoEsgotado.
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(fio.ident), ctypes.py_object(_TempoEsgotado))
        raise FalhaProjeto(f"O projeto demorou mais de {limite:g} s a responder (interrompido).",
                           f"demorou mais de {limite:g} s")
    if "erro" in caixa:
        e = caixa["erro"]
        raise FalhaProjeto(_traceback_do_projeto(e), _resumo(e))
    return caixa.get("valor"), caixa["ms"], caixa.get("impresso", "")


def carrega_projeto(caminho, limite=10):
    """Imports a project's file as a module of its own (its directory on
    sys.path, no input, its prints shown); raises FalhaProjeto."""
    caminho = os.path.abspath(caminho)
    if not os.path.isfile(caminho):
        raise FalhaProjeto(f"{caminho}: o ficheiro não existe.", "ficheiro inexistente")
    nome = "projeto_" + hashlib.sha256(caminho.encode()).hexdigest()[:12]
    pasta = os.path.dirname(caminho)
    if pasta not in sys.path:
        sys.path.append(pasta)

    def importa():
        spec = importlib.util.spec_from_file_location(nome, caminho)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod

    mod, _, impresso = corre(importa, limite)
    if impresso.strip():
        _diz(f"{os.path.basename(caminho)} escreveu ao ser importado:\n{impresso.rstrip()}")
    return mod


# ---------------------------------------------------------------- the adapters


def _casas(tabuleiro, pedra, coluna, linha):
    """The squares of a room.state board (one string a row, top first)
    holding pedra, named coluna(c) + linha(r) (r, c from the top left)."""
    return [coluna(c) + linha(r) for r, fila in enumerate(tabuleiro) for c, x in enumerate(fila) if x == pedra]


class Adaptador:
    """How a game's assignment plays on the server: the functions a file
    must have (requer), the student's values built from a room.state
    (valores, through the assignment's own constructors), the call (chama),
    the answer read back (le, through its transformers) and the position
    as the file prints it (mostra)."""

    jogo = ""
    requer = ()
    # estrategias: the values --estrategia may take ("" when any name of a
    # function of the file).
    estrategias = ()

    def __init__(self, mod, estrategia):
        self.m, self.estrategia = mod, estrategia

    def verifica(self):
        """Raises FalhaProjeto when the file lacks a function the adapter needs."""
        falta = [f for f in self.requer + self.funcoes_extra() if not callable(getattr(self.m, f, None))]
        if falta:
            raise FalhaProjeto("O projeto não define: " + ", ".join(falta) + ".", "faltam funções: " + ", ".join(falta))
        if self.estrategias and self.estrategia not in self.estrategias:
            raise FalhaProjeto(f"Estratégia {self.estrategia!r} desconhecida para {self.jogo}: "
                               + ", ".join(self.estrategias) + ".", "estratégia desconhecida")

    def funcoes_extra(self):
        return ()

    def valores(self, estado, eu, partida):
        raise NotImplementedError

    def chama(self, v):
        raise NotImplementedError

    def le(self, resposta, v):
        raise NotImplementedError

    def mostra(self, v):
        """The position as the file writes it, or None."""
        return None


class AdaptadorOrbito(Adaptador):
    """orbito (any n): escolhe_movimento_auto(t, j, lvl) -> posicao."""

    jogo = "orbito"
    requer = ("cria_tabuleiro", "str_para_posicao", "posicao_para_str", "cria_pedra_preta",
              "cria_pedra_branca", "escolhe_movimento_auto")
    estrategias = ("facil", "normal")

    def valores(self, estado, eu, partida):
        m, tab = self.m, estado["board"]
        casa = lambda cor: tuple(m.str_para_posicao(s) for s in _casas(tab, cor, lambda c: "abcdefghij"[c], lambda r: str(r + 1)))
        t = m.cria_tabuleiro(len(tab) // 2, casa("X"), casa("O"))
        return t, m.cria_pedra_preta() if eu == 0 else m.cria_pedra_branca()

    def chama(self, v):
        return self.m.escolhe_movimento_auto(v[0], v[1], self.estrategia)

    def le(self, resposta, v):
        return self.m.posicao_para_str(resposta)

    def mostra(self, v):
        f = getattr(self.m, "tabuleiro_para_str", None)
        return f(v[0]) if f else None


class AdaptadorMoinho(Adaptador):
    """morris: obter_movimento_auto(t, j, lvl) -> (posicao,) or (origem, destino)."""

    jogo = "morris"
    requer = ("tuplo_para_tabuleiro", "cria_peca", "posicao_para_str", "obter_movimento_auto")

    def verifica(self):
        super().verifica()
        if self.estrategia not in ("facil", "normal", "dificil", "difícil"):
            raise FalhaProjeto(f"Estratégia {self.estrategia!r} desconhecida para morris: facil, normal, dificil.",
                               "estratégia desconhecida")

    def valores(self, estado, eu, partida):
        valor = {"X": 1, "O": -1}
        tup = tuple(tuple(valor.get(x, 0) for x in fila) for fila in estado["board"])
        return self.m.tuplo_para_tabuleiro(tup), self.m.cria_peca("X" if eu == 0 else "O")

    def chama(self, v):
        return self.m.obter_movimento_auto(v[0], v[1], self.estrategia)

    def le(self, resposta, v):
        if not isinstance(resposta, tuple) or len(resposta) not in (1, 2):
            raise ValueError(f"obter_movimento_auto devolveu {resposta!r}: um tuplo de uma ou duas posições")
        return "".join(self.m.posicao_para_str(p) for p in resposta)

    def mostra(self, v):
        f = getattr(self.m, "tabuleiro_para_str", None)
        return f(v[0]) if f else None


class AdaptadorRainhas(Adaptador):
    """queens: the player function named by --estrategia,
    jogador(jogo, 'primeiro'|'segundo') -> (peca, (linha, coluna)), with the
    assignment's game dictionary built by cria_jogo and faz_jogada."""

    jogo = "queens"
    requer = ("cria_jogo", "faz_jogada")

    def funcao(self):
        for nome in (self.estrategia, "jogador_" + self.estrategia):
            if callable(getattr(self.m, nome, None)):
                return getattr(self.m, nome)
        return None

    def verifica(self):
        super().verifica()
        if self.funcao() is None:
            raise FalhaProjeto(f"O projeto não define o jogador {self.estrategia!r} (--estrategia).",
                               f"sem o jogador {self.estrategia}")

    def valores(self, estado, eu, partida):
        m, n = self.m, len(estado["board"])
        nomes = {p["seat"]: p.get("name", "") for p in estado.get("players", [])}
        variante = estado.get("variant", "tradicional")
        try:
            jogo = m.cria_jogo(variante, nomes.get(0, "primeiro"), nomes.get(1, "segundo"))
        except (KeyError, ValueError):
            if variante != "impar":
                raise
            jogo = m.cria_jogo("ímpar", nomes.get(0, "primeiro"), nomes.get(1, "segundo"))
        quem = ("primeiro", "segundo")
        lances = []
        for mv in partida.historico:
            peca, casa = mv["move"].split("@")
            l, c = casa.split(",")
            lances.append((mv["seat"], peca, (int(l), int(c))))
        # The hands the game started with (x-random draws them, a setup
        # gives them): what is left and what was played. The dictionary's
        # keys are the assignment's own: its representation is fixed.
        maos = estado.get("hands") or {}
        for s, q in enumerate(quem):
            inicio = list(maos.get(q, [])) + [p for seat, p, _ in lances if seat == s]
            if sorted(inicio) != sorted(jogo[q]):
                jogo[q] = sorted(inicio)
        jogadas = {casa for _, _, casa in lances}
        for r, fila in enumerate(estado["board"]):
            for c, x in enumerate(fila):
                if x != "." and (n - 1 - r, c) not in jogadas:
                    jogo["ocupadas"][(n - 1 - r, c)] = x  # a setup's piece
        for seat, peca, casa in lances:
            m.faz_jogada(jogo, quem[seat], peca, casa)
        return jogo, quem[eu]

    def chama(self, v):
        return self.funcao()(v[0], v[1])

    def le(self, resposta, v):
        try:
            peca, (l, c) = resposta
        except (TypeError, ValueError):
            raise ValueError(f"o jogador devolveu {resposta!r}: um tuplo (peca, (linha, coluna))") from None
        return f"{peca}@{l},{c}"

    def mostra(self, v):
        f = getattr(self.m, "mostra_jogo", None)
        if f is None:
            return None
        f(v[0])  # it prints: captured by the call
        return ""


_LETRAS_GO = "ABCDEFGHIJKLMNOPQRS"


class AdaptadorGo(Adaptador):
    """go: f(g, p) or f(g, p, l) named by --estrategia -> intersecao, or None
    to pass; g the goban, p the player's stone, l the goban the move must
    not make again (ko), all built with the file's constructors."""

    jogo = "go"
    requer = ("cria_goban", "cria_goban_vazio", "str_para_intersecao", "intersecao_para_str",
              "cria_pedra_preta", "cria_pedra_branca")

    def funcoes_extra(self):
        return (self.estrategia,)

    def goban(self, tab):
        m, n = self.m, len(tab)
        casa = lambda cor: tuple(m.str_para_intersecao(s) for s in _casas(tab, cor, lambda c: _LETRAS_GO[c], lambda r: str(n - r)))
        return m.cria_goban(n, casa("O"), casa("X"))

    def valores(self, estado, eu, partida):
        m, tab = self.m, estado["board"]
        g = self.goban(tab)
        p = m.cria_pedra_preta() if eu == 0 else m.cria_pedra_branca()
        antes = partida.tabuleiros.get(len(partida.historico) - 1)
        return g, p, (self.goban(antes) if antes else m.cria_goban_vazio(len(tab)))

    def chama(self, v):
        f = getattr(self.m, self.estrategia)
        try:
            tres = len(inspect.signature(f).parameters) >= 3
        except (TypeError, ValueError):
            tres = False
        return f(v[0], v[1], v[2]) if tres else f(v[0], v[1])

    def le(self, resposta, v):
        return "pass" if resposta is None else self.m.intersecao_para_str(resposta)

    def mostra(self, v):
        f = getattr(self.m, "goban_para_str", None)
        return f(v[0]) if f else None


class Adaptador2048(Adaptador):
    """2048 (race): f(t) named by --estrategia -> 'N'|'S'|'E'|'W', t the
    file's tabuleiro built with its constructors."""

    jogo = "2048"
    requer = ("cria_tabuleiro", "cria_coordenada", "tabuleiro_preenche_posicao", "tabuleiro_atualiza_pontuacao")

    def funcoes_extra(self):
        return (self.estrategia,)

    def valores(self, estado, eu, partida):
        m = self.m
        tab = estado["board"]
        if tab and isinstance(tab[0], list) and tab[0] and isinstance(tab[0][0], list):
            tab = tab[eu]  # race: a board a seat
        try:
            t = m.cria_tabuleiro()
        except TypeError:
            t = m.cria_tabuleiro(0)  # the assignment's example calls it so
        for l, fila in enumerate(tab):
            for c, x in enumerate(fila):
                if x:
                    m.tabuleiro_preenche_posicao(t, m.cria_coordenada(l + 1, c + 1), x)
        pontos = (estado.get("score") or {}).get(str(eu), 0)
        if pontos:
            m.tabuleiro_atualiza_pontuacao(t, pontos)
        return (t,)

    def chama(self, v):
        return getattr(self.m, self.estrategia)(v[0])

    def le(self, resposta, v):
        if resposta not in ("N", "S", "E", "W"):
            raise ValueError(f"{self.estrategia} devolveu {resposta!r}: 'N', 'S', 'E' ou 'W'")
        return resposta

    def mostra(self, v):
        f = getattr(self.m, "escreve_tabuleiro", None)
        if f is None:
            return None
        f(v[0])
        return ""


ADAPTADORES = {a.jogo: a for a in (AdaptadorOrbito, AdaptadorMoinho, AdaptadorRainhas, AdaptadorGo, Adaptador2048)}
# The strategy a game takes when none is named.
ESTRATEGIA = {"orbito": "normal", "morris": "normal"}


# ---------------------------------------------------------------- a game played by a project


class Partida:
    """What a game's stream told so far: the moves and each position's board."""

    def __init__(self):
        self.historico, self.tabuleiros, self.ultimo = [], {}, None
        self.minhas = 0  # moves this bot played

    def nota(self, estado):
        antes = self.ultimo
        if isinstance(estado.get("moves"), list):
            self.historico = [x if isinstance(x, dict) else {"move": x} for x in estado["moves"]]
        elif (antes is not None and estado.get("seq", 0) > antes.get("seq", 0) and estado.get("lastMove")
              and (estado.get("board") != antes.get("board") or estado.get("lastMove") != antes.get("lastMove"))):
            self.historico.append(estado["lastMove"])
        self.tabuleiros[len(self.historico)] = estado.get("board")
        self.ultimo = estado

    def vez(self, estado, eu):
        """Whether seat eu is to move in estado (in a race, once its last move is in)."""
        if estado.get("status") != "playing" or eu is None:
            return False
        if estado.get("turn") is not None:
            return estado["turn"] == eu and bool(estado.get("legal"))
        minhas = sum(1 for m in self.historico if m.get("seat") == eu)
        return bool((estado.get("legalBySeat") or {}).get(str(eu))) and minhas >= self.minhas


class Jogador:
    """A project playing as a bot account: its adapter, its time limit, and
    where its messages go."""

    def __init__(self, bot, adaptador, limite=10.0, rotulo=None, eco=True):
        self.bot, self.adaptador, self.limite = bot, adaptador, limite
        self.rotulo = rotulo or bot.nome
        self.eco = eco  # show what the project prints

    def limite_de(self, estado, eu):
        relogio = (estado.get("clocks") or {}).get(str(eu))
        if relogio is None:
            return self.limite
        return max(0.2, min(self.limite, relogio / 1000 - 1.5))

    def posicao(self, estado, eu, partida):
        """The position as the file writes it (its *_para_str, mostra_jogo,
        escreve_tabuleiro), else the server's board."""
        a = self.adaptador
        try:
            texto, _, impresso = corre(lambda: a.mostra(a.valores(estado, eu, partida)), 5)
            if texto is not None:
                return (impresso + texto).rstrip()
        except FalhaProjeto:
            pass
        tab = estado.get("board")
        return "\n".join(tab) if tab and isinstance(tab[0], str) else json.dumps(tab)

    def joga(self, sala):
        """Plays one game to its end; returns its last state."""
        partida, fim = Partida(), None
        for estado in self.bot.estados(sala):
            fim = estado
            partida.nota(estado)
            eu = self.bot.assento(estado)
            if not partida.vez(estado, eu):
                continue
            a = self.adaptador

            def vez():
                v = a.valores(estado, eu, partida)
                return a.le(a.chama(v), v)

            try:
                lance, ms, impresso = corre(vez, self.limite_de(estado, eu))
                if not isinstance(lance, str) or not lance:
                    raise FalhaProjeto(f"A resposta lida do projeto não é uma jogada: {lance!r}.", f"resposta {lance!r}")
            except FalhaProjeto as f:
                self.falha(sala, estado, eu, partida, len(partida.historico) + 1, f.texto, f.resumo)
                return self.bot_error(sala, f.resumo)
            info = f"{ms:.0f} ms"
            if impresso.strip():
                linhas = [x.strip() for x in impresso.strip().splitlines() if x.strip()]
                info += " | " + " | ".join(linhas)
                if self.eco:
                    _diz(f"[{self.rotulo} {sala}] o projeto escreveu:\n{impresso.rstrip()}")
            try:
                self.bot.joga_lance(sala, lance, info[:INFO_MAX])
                partida.minhas += 1
            except ErroAPI as e:
                if e.code == "illegal_move":
                    self.falha(sala, estado, eu, partida, len(partida.historico) + 1,
                               f"O projeto respondeu {lance!r}, uma jogada ilegal: {e.message}",
                               f"jogada ilegal {lance}")
                    return self.bot_error(sala, f"jogada ilegal {lance}: {e.message}")
                if e.code not in ("not_your_turn", "game_over"):
                    _diz(f"[{self.rotulo} {sala}] {lance!r}: {e}")
        return fim

    def falha(self, sala, estado, eu, partida, lance, texto, resumo):
        _diz(f"[{self.rotulo} {sala}] O projeto falhou na jogada {lance} ({self.adaptador.jogo}, "
             f"lugar {eu}): {resumo}\nA posição:\n{self.posicao(estado, eu, partida)}\n{texto}\n"
             f"O bot desiste desta partida (bot_error); as outras continuam.")

    def bot_error(self, sala, resumo):
        try:
            self.bot.desiste(sala, "bot_error", resumo[:INFO_MAX])
        except (ErroAPI, OSError) as e:
            _diz(f"[{self.rotulo} {sala}] não consegui desistir: {e}")
        return None

    def partida(self, sala):
        """A game on its own thread: played, and its end told."""
        try:
            fim = self.joga(sala)
            if self.eco and fim and fim.get("result") is not None:
                _diz(f"[{self.rotulo} {sala}] fim: {_resultado(fim, self.bot.assento(fim))}")
        except (ErroAPI, OSError, ValueError) as e:
            _diz(f"[{self.rotulo} {sala}] {e}")


def _resultado(estado, eu):
    r = estado.get("result") or {}
    w = r.get("winner")
    quem = "empate" if w is None else ("vitória" if w == eu else "derrota")
    return f"{quem} ({r.get('reason')})"


# ---------------------------------------------------------------- commands


def _adaptador(jogo, caminho, estrategia, mod=None):
    mod = mod or carrega_projeto(caminho)
    a = ADAPTADORES[jogo](mod, estrategia)
    a.verifica()
    return a


def _projeto(args, ficheiro):
    """The adapter of a project's file for the command's game and strategy,
    with the strategy's name; or the command's exit code, the reason said."""
    estrategia = args.estrategia or ESTRATEGIA.get(args.jogo)
    if not estrategia:
        _diz(f"--estrategia é obrigatória para {args.jogo} (o nome da função que escolhe a jogada).")
        return None, None, 2
    try:
        return _adaptador(args.jogo, ficheiro, estrategia), estrategia, 0
    except FalhaProjeto as f:
        _diz(f"{ficheiro}: {f.texto}")
        return None, None, 1


def cmd_projeto(args):
    """tabuleiro.py projeto: one project file as one bot account."""
    a, estrategia, erro = _projeto(args, args.ficheiro)
    if a is None:
        return erro
    bot = Bot(args.servidor, args.token)
    j = Jogador(bot, a, args.limite)
    _diz(f"{bot.nome} ({bot.id}) joga {args.jogo} com {os.path.basename(args.ficheiro)} ({estrategia}): à espera de partidas")
    bot.segue(j.partida, partidas=args.partidas)
    return 0


def escolhe_primeira(estado):
    """The example's choice (exemplo.py): the first legal move."""
    return estado["legal"][0]


def escolhe_ao_acaso(estado):
    """A random legal move."""
    return random.choice(estado["legal"])


def cmd_escada(args):
    """tabuleiro.py escada: the bot account on a pool's ladder, playing the
    games the server pairs it in until Ctrl-C, which takes it off the ladder
    and lets the games under way finish (a second Ctrl-C stops at once)."""
    if args.projeto and args.jogo not in ADAPTADORES:
        _diz(f"--projeto: não há adaptador para {args.jogo} (há {', '.join(sorted(ADAPTADORES))}).")
        return 2
    bot = Bot(args.servidor, args.token)
    if args.projeto:
        a, estrategia, erro = _projeto(args, args.projeto)
        if a is None:
            return erro
        partida = Jogador(bot, a, args.limite).partida
        quem = f"{os.path.basename(args.projeto)} ({estrategia})"
    else:
        escolhe = escolhe_ao_acaso if args.aleatorio else escolhe_primeira
        partida = lambda sala: bot._partida(sala, escolhe)  # noqa: E731
        quem = "jogadas ao acaso" if args.aleatorio else "o exemplo (a primeira jogada legal)"
    caminho = f"{bot.servidor}/api/bot/ladder/{_sala(args.jogo)}/{_sala(args.variante)}"
    r = _json("POST", caminho, bot.token)
    _diz(f"{bot.nome} ({bot.id}) está na escada {r['pool']} com {quem}: "
         f"o servidor emparelha-o enquanto estiver ligado (Ctrl-C para sair)")
    fio = threading.Thread(target=bot.segue, args=(partida, args.partidas), daemon=True)
    fio.start()
    try:
        while fio.is_alive():
            fio.join(0.5)
    except KeyboardInterrupt:
        pass
    try:
        _json("DELETE", caminho, bot.token)
        _diz(f"{bot.nome} saiu da escada {r['pool']}")
        # The games under way, and any whose start the stream tells a moment
        # after the leaving (paired just before it): played to their end.
        calmo, avisado = 0, False
        while calmo < 2:
            em_jogo = [f for f in list(getattr(bot, "fios", {}).values()) if f.is_alive()]
            if not em_jogo:
                calmo += 1
                time.sleep(0.5)
                continue
            calmo = 0
            if not avisado:
                _diz("a acabar as partidas em curso (Ctrl-C de novo para parar já)")
                avisado = True
            for f in em_jogo:
                f.join(STREAM_TIMEOUT * 10)
    except KeyboardInterrupt:
        return 130
    return 0


def _chave(servidor, token_jogador):
    return servidor.rstrip("/") + " " + hashlib.sha256(token_jogador.encode()).hexdigest()[:16]


def _le_tokens(caminho):
    try:
        with open(caminho, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return {}


def _guarda_tokens(caminho, dados):
    novo = caminho + ".novo"
    fd = os.open(novo, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(dados, f, indent=1, ensure_ascii=False)
    os.replace(novo, caminho)


def _entradas(args):
    """The class's entries: (name, file, strategy), or exits naming what is wrong."""
    out, nomes = [], set()
    for e in args.projetos:
        caminho, _, estrategia = e.rpartition(":") if ":" in e else (e, "", "")
        if not caminho:
            caminho, estrategia = e, ""
        estrategia = estrategia or ESTRATEGIA.get(args.jogo, "")
        if not estrategia:
            raise SystemExit(f"{e}: diga a estratégia, FICHEIRO.py:ESTRATEGIA (para {args.jogo}, o nome da função).")
        nome = os.path.splitext(os.path.basename(caminho))[0] + ":" + estrategia
        if nome in nomes:
            raise SystemExit(f"{e}: {nome} aparece duas vezes.")
        nomes.add(nome)
        out.append((nome, caminho, estrategia))
    return out


def cmd_torneio(args):
    """tabuleiro.py torneio: the class tournament in one command."""
    servidor = args.servidor.rstrip("/")
    entradas = _entradas(args)
    # 1. Every file imports and has what its game needs, before anything starts.
    modulos, adaptadores, falhas = {}, {}, []
    for nome, caminho, estrategia in entradas:
        try:
            if caminho not in modulos:
                modulos[caminho] = carrega_projeto(caminho)
            adaptadores[nome] = _adaptador(args.jogo, caminho, estrategia, modulos[caminho])
        except FalhaProjeto as f:
            falhas.append(f"{caminho} ({nome}) não pode jogar:\n{f.texto}")
    if falhas:
        _diz("\n\n".join(falhas) + "\n\nNada foi começado: corrija ou retire estes projetos.")
        return 1
    # 2. A class bot per entry, reused from the tokens file.
    tokens = _le_tokens(args.tokens)
    meus = tokens.setdefault(_chave(servidor, args.jogador), {})
    bots = {}
    for nome, _, _ in entradas:
        guardado = meus.get(nome)
        if guardado:
            try:
                bots[nome] = Bot(servidor, guardado["token"])
                continue
            except ErroAPI as e:
                if e.status != 401:
                    raise
        bot_id, token = registra(servidor, args.jogador, nome, turma=True)
        meus[nome] = {"id": bot_id, "token": token}
        _guarda_tokens(args.tokens, tokens)
        bots[nome] = Bot(servidor, token)
        _diz(f"{nome}: bot {bot_id} registado (token guardado em {args.tokens})")
    # 3. Every bot listens for its games, on threads of this process.
    ligados = []
    for nome, bot in bots.items():
        j = Jogador(bot, adaptadores[nome], args.limite, rotulo=nome, eco=False)
        ev = threading.Event()
        threading.Thread(target=bot.segue, args=(j.partida, None, ev), daemon=True).start()
        ligados.append(ev)
    for ev in ligados:
        ev.wait(STREAM_TIMEOUT)
    # 4. The tournament.
    spec = {"game": args.jogo,
            "entrants": [{"bot": bots[n].id} for n, _, _ in entradas] + [{"level": lv} for lv in args.nivel],
            "partidas": [[args.variante, args.partidas]]}
    if args.relogio:
        base, _, inc = args.relogio.partition("+")
        spec["clock"] = {"base": float(base), "increment": float(inc or 0)}
    t = _json("POST", servidor + "/api/torneios", args.jogador, spec)
    _diz(f"Torneio: {servidor}/t/{t['id']}")
    # 5. Until it is over: the list's summary (small) while it runs, the
    # whole view (every game) once at the end.
    url = f"{servidor}/api/torneios/{urllib.parse.quote(t['id'], safe='')}"
    visto = None
    while True:
        time.sleep(args.espera)
        try:
            resumo = next((x for x in _json("GET", servidor + "/api/torneios").get("torneios", []) if x.get("id") == t["id"]), None)
            if resumo is None:  # not among the newest listed
                v = _json("GET", url)
                resumo = {"status": v.get("status"), "games": len(v.get("games", [])),
                          "played": sum(1 for g in v.get("games", []) if g.get("status") == "finished")}
        except (ErroAPI, OSError, ValueError) as e:
            _diz(f"(o servidor não respondeu: {e}; de novo)")
            continue
        if resumo.get("played") != visto:
            visto = resumo.get("played")
            _diz(f"{visto}/{resumo.get('games')} partidas jogadas")
        if resumo.get("status") == "finished":
            break
    _diz(classificacao(_json("GET", url)))
    return 0


def classificacao(v):
    """The standings of a tournament view: a table, then the dictionary of
    win percentages as the queens assignment's torneio returns it."""
    linhas = [f"Classificação ({v.get('game')}, {len(v.get('games', []))} partidas):"]
    st = v.get("standings", [])
    largura = max([len(s.get("name", "")) for s in st] + [4])
    for i, s in enumerate(st, 1):
        linhas.append(f"{i:3d}. {s.get('name', ''):<{largura}}  {s['played']:3d} jogos  {s['won']:3d} V  "
                      f"{s['drawn']:3d} E  {s['lost']:3d} D  {s['share']:5.1f}%")
    linhas.append(repr({s.get("name", ""): float(s["share"]) for s in st}))
    return "\n".join(linhas)


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="tabuleiro.py",
        description="O seu projeto como bot no Tabuleiro / Your project as a bot on Tabuleiro (docs/bots-api.md).")
    sub = p.add_subparsers(dest="comando", required=True, metavar="{projeto,torneio,escada}")
    jogos = sorted(ADAPTADORES)

    pj = sub.add_parser("projeto", help="joga com o ficheiro de um projeto / plays a project's file as a bot",
                        description="Joga todas as partidas da conta de bot com as funções do projeto. / "
                                    "Plays every game of the bot account with the project's own functions.")
    pj.add_argument("ficheiro", help="o ficheiro .py do projeto / the project's .py file")
    pj.add_argument("--jogo", required=True, choices=jogos, help="o jogo / the game")
    pj.add_argument("--estrategia", help="orbito: facil|normal; morris: facil|normal|dificil; queens: a função do "
                                         "jogador; go, 2048: a função que escolhe / the strategy, or the function that chooses")
    pj.add_argument("--servidor", required=True, help="o endereço do servidor / the server's URL")
    pj.add_argument("--token", required=True, help="o token da conta de bot / the bot account's token")
    pj.add_argument("--partidas", type=int, help="para depois de N partidas (por omissão nunca) / stop after N games (default: never)")
    pj.add_argument("--limite", type=float, default=10.0,
                    help="segundos por jogada, no máximo (por omissão 10) / most seconds a move (default 10)")
    pj.set_defaults(fazer=cmd_projeto)

    pt = sub.add_parser("torneio", help="o torneio da turma / the class tournament",
                        description="Regista um bot por ficheiro, cria o torneio e joga-o todo neste processo. / "
                                    "Registers a bot per file, creates the tournament and plays it all in this process.")
    pt.add_argument("projetos", nargs="+", metavar="FICHEIRO.py:ESTRATEGIA",
                    help="os projetos, cada um com a sua estratégia / the projects, each with its strategy")
    pt.add_argument("--jogo", required=True, choices=jogos, help="o jogo / the game")
    pt.add_argument("--variante", required=True, help="a variante (orbito: 2..5; queens: tradicional, ...) / the variant")
    pt.add_argument("--partidas", type=int, default=1,
                    help="vezes que cada par joga, cada um a começar / times each pair plays, each first (default 1)")
    pt.add_argument("--servidor", required=True, help="o endereço do servidor / the server's URL")
    pt.add_argument("--jogador", required=True, help="o seu token de jogador (professor) / your player's token (the teacher's)")
    pt.add_argument("--nivel", action="append", default=[],
                    help="um nível do servidor também em jogo (pode repetir) / a server level that plays too (repeatable)")
    pt.add_argument("--relogio", help="o relógio de cada partida, BASE+INCREMENTO em segundos (por omissão o do servidor, 60+2) / "
                                      "each game's clock")
    pt.add_argument("--limite", type=float, default=10.0,
                    help="segundos por jogada, no máximo (por omissão 10) / most seconds a move (default 10)")
    pt.add_argument("--tokens", default="tabuleiro-turma.json",
                    help="onde se guardam os tokens dos bots, para os reusar (por omissão tabuleiro-turma.json) / "
                         "where the bots' tokens are kept, to reuse them")
    pt.add_argument("--espera", type=float, default=2.0, help=argparse.SUPPRESS)
    pt.set_defaults(fazer=cmd_torneio)

    pe = sub.add_parser("escada", help="a escada de bots / the bot ladder",
                        description="Põe a conta de bot na escada de um jogo e variante e joga as partidas que o "
                                    "servidor lhe marca, até Ctrl-C (que a tira da escada). / "
                                    "Enters the bot account in a pool's ladder and plays the games the server pairs "
                                    "it in, until Ctrl-C (which takes it off the ladder and lets its games finish).")
    pe.add_argument("--jogo", required=True, help="o jogo (orbito, morris, go, queens, 2048) / the game")
    pe.add_argument("--variante", required=True, help="a variante (orbito: 2..5; go: 9, 13, 19; ...) / the variant")
    pe.add_argument("--servidor", required=True, help="o endereço do servidor / the server's URL")
    pe.add_argument("--token", required=True, help="o token da conta de bot / the bot account's token")
    pe.add_argument("--projeto", metavar="FICHEIRO.py",
                    help="joga com o ficheiro de um projeto, como o comando projeto (por omissão o exemplo) / "
                         "play a project's file, as the projeto command does (default: the example bot)")
    pe.add_argument("--estrategia", help="com --projeto: orbito: facil|normal; morris: facil|normal|dificil; ... / "
                                         "with --projeto: the strategy, or the function that chooses")
    pe.add_argument("--aleatorio", action="store_true",
                    help="sem --projeto: jogadas ao acaso em vez da primeira legal / without --projeto: random moves")
    pe.add_argument("--partidas", type=int, help="para depois de N partidas (por omissão nunca) / stop after N games (default: never)")
    pe.add_argument("--limite", type=float, default=10.0,
                    help="segundos por jogada, no máximo (por omissão 10) / most seconds a move (default 10)")
    pe.set_defaults(fazer=cmd_escada)

    args = p.parse_args(argv)
    threading.stack_size(32 << 20)  # deep recursion in a project's search
    _instala_saida()
    try:
        return args.fazer(args)
    except ErroAPI as e:
        _diz(f"O servidor recusou: {e}")
        return 1
    except OSError as e:
        _diz(f"Não foi possível falar com o servidor: {e}")
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
