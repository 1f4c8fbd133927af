# 2.º projeto de FP: Jogo do Moinho (outro exemplo de aluno, para os testes do Tabuleiro).
#
# Representacoes internas (classes):
#   posicao:   Posicao, com os indices da coluna e da linha (0 a 2)
#   peca:      Peca, com o valor 1 (X), -1 (O) ou 0 (livre)
#   tabuleiro: Tabuleiro, com um dicionario {indice 0..8: valor da peca}


class Posicao:
    def __init__(self, c, l):
        self.c, self.l = c, l


class Peca:
    def __init__(self, v):
        self.v = v


class Tabuleiro:
    def __init__(self):
        self.casas = {i: 0 for i in range(9)}


def cria_posicao(c, l):
    if not (isinstance(c, str) and isinstance(l, str) and c in ('a', 'b', 'c') and l in ('1', '2', '3')):
        raise ValueError('cria_posicao: argumentos invalidos')
    return Posicao('abc'.index(c), '123'.index(l))


def cria_copia_posicao(p):
    return Posicao(p.c, p.l)


def obter_pos_c(p):
    return 'abc'[p.c]


def obter_pos_l(p):
    return '123'[p.l]


def eh_posicao(arg):
    return isinstance(arg, Posicao)


def posicoes_iguais(p1, p2):
    return eh_posicao(p1) and eh_posicao(p2) and (p1.c, p1.l) == (p2.c, p2.l)


def posicao_para_str(p):
    return obter_pos_c(p) + obter_pos_l(p)


def _indice(p):
    return 3 * p.l + p.c


def _posicao(i):
    return Posicao(i % 3, i // 3)


# adjacencias por indice (0 = a1, 1 = b1, ..., 8 = c3)
_ADJ = {0: (1, 3, 4), 1: (0, 2, 4), 2: (1, 4, 5), 3: (0, 4, 6), 4: (0, 1, 2, 3, 5, 6, 7, 8),
        5: (2, 4, 8), 6: (3, 4, 7), 7: (4, 6, 8), 8: (4, 5, 7)}


def obter_posicoes_adjacentes(p):
    return tuple(_posicao(i) for i in _ADJ[_indice(p)])


def cria_peca(s):
    valores = {'X': 1, 'O': -1, ' ': 0}
    if not isinstance(s, str) or s not in valores:
        raise ValueError('cria_peca: argumento invalido')
    return Peca(valores[s])


def cria_copia_peca(j):
    return Peca(j.v)


def eh_peca(arg):
    return isinstance(arg, Peca)


def pecas_iguais(j1, j2):
    return eh_peca(j1) and eh_peca(j2) and j1.v == j2.v


def peca_para_str(j):
    return {1: '[X]', -1: '[O]', 0: '[ ]'}[j.v]


def peca_para_inteiro(j):
    return j.v


def cria_tabuleiro():
    return Tabuleiro()


def cria_copia_tabuleiro(t):
    novo = Tabuleiro()
    novo.casas = dict(t.casas)
    return novo


def obter_peca(t, p):
    return Peca(t.casas[_indice(p)])


def obter_vetor(t, s):
    if s in 'abc':
        return tuple(Peca(t.casas[3 * l + 'abc'.index(s)]) for l in range(3))
    return tuple(Peca(t.casas[3 * '123'.index(s) + c]) for c in range(3))


def coloca_peca(t, j, p):
    t.casas[_indice(p)] = j.v
    return t


def remove_peca(t, p):
    t.casas[_indice(p)] = 0
    return t


def move_peca(t, p1, p2):
    v = t.casas[_indice(p1)]
    t.casas[_indice(p1)] = 0
    t.casas[_indice(p2)] = v
    return t


_LINHAS = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8))


def _vencedores(t):
    return [t.casas[a] for a, b, c in _LINHAS if t.casas[a] != 0 and t.casas[a] == t.casas[b] == t.casas[c]]


def eh_tabuleiro(arg):
    if not isinstance(arg, Tabuleiro):
        return False
    vs = list(arg.casas.values())
    return vs.count(1) <= 3 and vs.count(-1) <= 3 and abs(vs.count(1) - vs.count(-1)) <= 1 and len(set(_vencedores(arg))) <= 1


def eh_posicao_livre(t, p):
    return t.casas[_indice(p)] == 0


def tabuleiros_iguais(t1, t2):
    return eh_tabuleiro(t1) and eh_tabuleiro(t2) and t1.casas == t2.casas


def tabuleiro_para_str(t):
    def linha(l):
        return '123'[l] + ' ' + '-'.join(peca_para_str(Peca(t.casas[3 * l + c])) for c in range(3))
    return '   a   b   c\n' + linha(0) + '\n   | \\ | / |\n' + linha(1) + '\n   | / | \\ |\n' + linha(2)


def tuplo_para_tabuleiro(tup):
    t = Tabuleiro()
    for l in range(3):
        for c in range(3):
            t.casas[3 * l + c] = tup[l][c]
    return t


def obter_ganhador(t):
    v = _vencedores(t)
    return Peca(v[0] if v else 0)


def obter_posicoes_livres(t):
    return tuple(_posicao(i) for i in range(9) if t.casas[i] == 0)


def obter_posicoes_jogador(t, j):
    return tuple(_posicao(i) for i in range(9) if t.casas[i] == j.v)


def _movimentos(t, v):
    """(origem, destino) por ordem de leitura, como indices."""
    return [(i, k) for i in range(9) if t.casas[i] == v for k in _ADJ[i] if t.casas[k] == 0]


def obter_movimento_manual(t, j):
    fase_colocacao = list(t.casas.values()).count(j.v) < 3
    pergunta = 'Turno do jogador. Escolha uma posicao: ' if fase_colocacao else 'Turno do jogador. Escolha um movimento: '
    s = input(pergunta)
    try:
        if fase_colocacao and len(s) == 2:
            p = cria_posicao(s[0], s[1])
            if eh_posicao_livre(t, p):
                return (p,)
        elif not fase_colocacao and len(s) == 4:
            p, q = cria_posicao(s[0], s[1]), cria_posicao(s[2], s[3])
            movs = _movimentos(t, j.v)
            if (_indice(p), _indice(q)) in movs or (not movs and _indice(p) == _indice(q) and t.casas[_indice(p)] == j.v):
                return (p, q)
    except ValueError:
        pass
    raise ValueError('obter_movimento_manual: escolha invalida')


def _valor(t):
    v = _vencedores(t)
    return v[0] if v else 0


def _minimax(t, v, prof):
    """Algoritmo 1: (valor, sequencia de movimentos)."""
    if _valor(t) != 0 or prof == 0:
        return _valor(t), []
    melhor, seq = -v, None
    for i, k in _movimentos(t, v):
        novo = cria_copia_tabuleiro(t)
        novo.casas[i], novo.casas[k] = 0, v
        r, s = _minimax(novo, -v, prof - 1)
        if seq is None or r * v > melhor * v:
            melhor, seq = r, [(i, k)] + s
    return melhor, seq or []


def obter_movimento_auto(t, j, lvl):
    v = j.v
    if list(t.casas.values()).count(v) < 3:
        livres = [i for i in range(9) if t.casas[i] == 0]
        for quem in (v, -v):
            for i in livres:
                t2 = cria_copia_tabuleiro(t)
                t2.casas[i] = quem
                if _valor(t2) == quem:
                    return (_posicao(i),)
        for i in [4, 0, 2, 6, 8, 1, 3, 5, 7]:
            if t.casas[i] == 0:
                return (_posicao(i),)
    movs = _movimentos(t, v)
    if not movs:
        primeira = [i for i in range(9) if t.casas[i] == v][0]
        return (_posicao(primeira), _posicao(primeira))
    if lvl == 'facil':
        i, k = movs[0]
    else:
        i, k = _minimax(t, v, 1 if lvl == 'normal' else 5)[1][0]
    return (_posicao(i), _posicao(k))


def moinho(jog, lvl):
    if jog not in ('[X]', '[O]') or lvl not in ('facil', 'normal', 'dificil'):
        raise ValueError('moinho: argumentos invalidos')
    print('Bem-vindo ao JOGO DO MOINHO. Nivel de dificuldade %s.' % lvl)
    t = cria_tabuleiro()
    print(tabuleiro_para_str(t))
    humano = 1 if jog == '[X]' else -1
    vez = 1
    while _valor(t) == 0:
        if vez == humano:
            m = obter_movimento_manual(t, Peca(vez))
        else:
            print('Turno do computador (%s):' % lvl)
            m = obter_movimento_auto(t, Peca(vez), lvl)
        if len(m) == 1:
            coloca_peca(t, Peca(vez), m[0])
        else:
            move_peca(t, m[0], m[1])
        print(tabuleiro_para_str(t))
        vez = -vez
    return peca_para_str(obter_ganhador(t))
