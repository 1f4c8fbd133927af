# 2.º projeto de FP: Orbito-n (outro exemplo de aluno, para os testes do Tabuleiro).
#
# Representacoes internas:
#   posicao: objeto imutavel da classe _Posicao (coluna e linha), hashable
#   pedra:   inteiro 1 (preta), -1 (branca) ou 0 (neutra)
#   tabuleiro: dicionario {'n': orbitas, 'casas': {posicao: pedra}}, so as
#              posicoes ocupadas


class _Posicao:
    __slots__ = ('_c', '_l')

    def __init__(self, c, l):
        object.__setattr__(self, '_c', c)
        object.__setattr__(self, '_l', l)

    def __setattr__(self, *_):
        raise AttributeError('posicao imutavel')

    def __eq__(self, o):
        return isinstance(o, _Posicao) and (self._c, self._l) == (o._c, o._l)

    def __hash__(self):
        return hash((self._c, self._l))


LETRAS = 'abcdefghij'


def cria_posicao(col, lin):
    if not (isinstance(col, str) and len(col) == 1 and col in LETRAS
            and type(lin) is int and 0 < lin < 11):
        raise ValueError('cria_posicao: argumentos invalidos')
    return _Posicao(col, lin)


def obtem_pos_col(p):
    return p._c


def obtem_pos_lin(p):
    return p._l


def eh_posicao(arg):
    return isinstance(arg, _Posicao)


def posicoes_iguais(p1, p2):
    return eh_posicao(p1) and eh_posicao(p2) and p1 == p2


def posicao_para_str(p):
    return '%s%d' % (obtem_pos_col(p), obtem_pos_lin(p))


def str_para_posicao(s):
    return cria_posicao(s[0], int(s[1:]))


def eh_posicao_valida(p, n):
    return LETRAS.index(obtem_pos_col(p)) < 2 * n and obtem_pos_lin(p) <= 2 * n


def _desloca(p, dc, dl, n):
    c, l = LETRAS.index(obtem_pos_col(p)) + dc, obtem_pos_lin(p) + dl
    if 0 <= c < 2 * n and 1 <= l <= 2 * n:
        return cria_posicao(LETRAS[c], l)
    return None


def obtem_posicoes_adjacentes(p, n, d):
    direcoes = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]
    if not d:
        direcoes = direcoes[::2]
    vizinhos = [_desloca(p, dc, dl, n) for dc, dl in direcoes]
    return tuple(v for v in vizinhos if v is not None)


def _anel(p, n):
    """0 para a orbita mais exterior, n-1 para a mais interior."""
    c, l = LETRAS.index(obtem_pos_col(p)), obtem_pos_lin(p) - 1
    return min(c, l, 2 * n - 1 - c, 2 * n - 1 - l)


def ordena_posicoes(t, n):
    return tuple(sorted(t, key=lambda p: (-_anel(p, n), obtem_pos_lin(p), LETRAS.index(obtem_pos_col(p)))))


def cria_pedra_branca():
    return -1


def cria_pedra_preta():
    return 1


def cria_pedra_neutra():
    return 0


def eh_pedra(arg):
    return type(arg) is int and arg in (-1, 0, 1)


def eh_pedra_branca(p):
    return p == -1


def eh_pedra_preta(p):
    return p == 1


def pedras_iguais(p1, p2):
    return eh_pedra(p1) and eh_pedra(p2) and p1 == p2


def pedra_para_str(p):
    return {1: 'X', -1: 'O', 0: ' '}[p]


def eh_pedra_jogador(p):
    return p != 0


def pedra_para_int(p):
    return p


def cria_tabuleiro_vazio(n):
    if not (type(n) is int and 2 <= n <= 5):
        raise ValueError('cria_tabuleiro_vazio: argumento invalido')
    return {'n': n, 'casas': {}}


def cria_tabuleiro(n, tp, tb):
    try:
        t = cria_tabuleiro_vazio(n)
        ok = isinstance(tp, tuple) and isinstance(tb, tuple)
        todas = tp + tb
        ok = ok and all(eh_posicao(p) and eh_posicao_valida(p, n) for p in todas)
        ok = ok and len(set(todas)) == len(todas)
    except (ValueError, TypeError):
        ok = False
    if not ok:
        raise ValueError('cria_tabuleiro: argumentos invalidos')
    for p in tp:
        coloca_pedra(t, p, cria_pedra_preta())
    for p in tb:
        coloca_pedra(t, p, cria_pedra_branca())
    return t


def cria_copia_tabuleiro(t):
    return {'n': t['n'], 'casas': dict(t['casas'])}


def obtem_numero_orbitas(t):
    return t['n']


def obtem_pedra(t, p):
    return t['casas'].get(p, cria_pedra_neutra())


def _percorre(t, p, dc, dl):
    n = obtem_numero_orbitas(t)
    inicio = p
    while _desloca(inicio, -dc, -dl, n) is not None:
        inicio = _desloca(inicio, -dc, -dl, n)
    linha = []
    while inicio is not None:
        linha.append((inicio, obtem_pedra(t, inicio)))
        inicio = _desloca(inicio, dc, dl, n)
    return tuple(linha)


def obtem_linha_horizontal(t, p):
    return _percorre(t, p, 1, 0)


def obtem_linha_vertical(t, p):
    return _percorre(t, p, 0, 1)


def obtem_linhas_diagonais(t, p):
    return (_percorre(t, p, 1, 1), _percorre(t, p, 1, -1))


def _posicoes(n):
    return ordena_posicoes(tuple(cria_posicao(c, l) for c in LETRAS[:2 * n] for l in range(1, 2 * n + 1)), n)


def obtem_posicoes_pedra(t, j):
    return tuple(p for p in _posicoes(obtem_numero_orbitas(t)) if pedras_iguais(obtem_pedra(t, p), j))


def coloca_pedra(t, p, j):
    if eh_pedra_jogador(j):
        t['casas'][p] = j
    else:
        t['casas'].pop(p, None)
    return t


def remove_pedra(t, p):
    t['casas'].pop(p, None)
    return t


def eh_tabuleiro(arg):
    return (isinstance(arg, dict) and set(arg) == {'n', 'casas'} and type(arg['n']) is int
            and 2 <= arg['n'] <= 5 and isinstance(arg['casas'], dict))


def tabuleiros_iguais(t1, t2):
    return eh_tabuleiro(t1) and eh_tabuleiro(t2) and t1 == t2


def tabuleiro_para_str(t):
    n = obtem_numero_orbitas(t)
    res = '    ' + '   '.join(LETRAS[:2 * n])
    for l in range(1, 2 * n + 1):
        if l > 1:
            res += '\n' + '    ' + '   '.join(['|'] * (2 * n))
        casas = ['[' + pedra_para_str(obtem_pedra(t, cria_posicao(c, l))) + ']' for c in LETRAS[:2 * n]]
        res += '\n' + str(l).zfill(2) + ' ' + '-'.join(casas)
    return res


def move_pedra(t, p1, p2):
    j = obtem_pedra(t, p1)
    return coloca_pedra(remove_pedra(t, p1), p2, j)


def obtem_posicao_seguinte(t, p, s):
    """Percorre a orbita de p como uma lista circular de posicoes, em
    sentido horario a partir do canto superior esquerdo."""
    n = obtem_numero_orbitas(t)
    a = _anel(p, n)
    lo, hi = LETRAS[a], LETRAS[2 * n - 1 - a]
    ci, cf = a, 2 * n - 1 - a
    orbita = ([cria_posicao(LETRAS[c], a + 1) for c in range(ci, cf)]
              + [cria_posicao(hi, l) for l in range(a + 1, 2 * n - a)]
              + [cria_posicao(LETRAS[c], 2 * n - a) for c in range(cf, ci, -1)]
              + [cria_posicao(lo, l) for l in range(2 * n - a, a + 1, -1)])
    i = orbita.index(p)
    return orbita[(i + (1 if s else -1)) % len(orbita)]


def roda_tabuleiro(t):
    casas = dict(t['casas'])
    t['casas'] = {}
    for p, j in casas.items():
        coloca_pedra(t, obtem_posicao_seguinte(t, p, False), j)
    return t


def verifica_linha_pedras(t, p, j, k):
    if not pedras_iguais(obtem_pedra(t, p), j):
        return False
    for linha in (obtem_linha_horizontal(t, p), obtem_linha_vertical(t, p)) + obtem_linhas_diagonais(t, p):
        seguidas, contem = 0, False
        for q, v in linha:
            if pedras_iguais(v, j):
                seguidas += 1
                contem = contem or posicoes_iguais(q, p)
                if contem and seguidas >= k:
                    return True
            else:
                seguidas, contem = 0, False
    return False


def eh_vencedor(t, j):
    k = 2 * obtem_numero_orbitas(t)
    for p in obtem_posicoes_pedra(t, j):
        if verifica_linha_pedras(t, p, j, k):
            return True
    return False


def eh_fim_jogo(t):
    return (len(obtem_posicoes_pedra(t, cria_pedra_neutra())) == 0
            or eh_vencedor(t, cria_pedra_preta()) or eh_vencedor(t, cria_pedra_branca()))


def escolhe_movimento_manual(t):
    n = obtem_numero_orbitas(t)
    livres = tuple(posicao_para_str(p) for p in obtem_posicoes_pedra(t, cria_pedra_neutra()))
    s = input('Escolha uma posicao livre:')
    while s not in livres:
        s = input('Escolha uma posicao livre:')
    return str_para_posicao(s)


def _linha_mais_longa(t, p, j):
    k = 2 * obtem_numero_orbitas(t)
    L = 0
    while L < k and verifica_linha_pedras(t, p, j, L + 1):
        L += 1
    return L


def escolhe_movimento_auto(t, j, lvl):
    n = obtem_numero_orbitas(t)
    livres = obtem_posicoes_pedra(t, cria_pedra_neutra())
    adversario = -pedra_para_int(j)
    if lvl == 'facil':
        for p in livres:
            depois = roda_tabuleiro(coloca_pedra(cria_copia_tabuleiro(t), p, j))
            q = obtem_posicao_seguinte(t, p, False)
            for v in obtem_posicoes_adjacentes(q, n, True):
                if pedras_iguais(obtem_pedra(depois, v), j):
                    return p
        return livres[0]
    valores = []
    for p in livres:
        uma = roda_tabuleiro(coloca_pedra(cria_copia_tabuleiro(t), p, j))
        propria = _linha_mais_longa(uma, obtem_posicao_seguinte(t, p, False), j)
        duas = roda_tabuleiro(roda_tabuleiro(cria_copia_tabuleiro(t)))
        q = obtem_posicao_seguinte(t, obtem_posicao_seguinte(t, p, False), False)
        ameaca = _linha_mais_longa(coloca_pedra(duas, q, adversario), q, adversario)
        valores.append((p, propria, ameaca))
    L = max(max(v[1], v[2]) for v in valores)
    for p, propria, _ in valores:
        if propria == L:
            return p
    for p, _, ameaca in valores:
        if ameaca == L:
            return p


def orbito(n, modo, jog):
    if not (type(n) is int and 2 <= n <= 5) or modo not in ('facil', 'normal', '2jogadores') or jog not in ('X', 'O'):
        raise ValueError('orbito: argumentos invalidos')
    print('Bem-vindo ao ORBITO-%d.' % n)
    if modo == '2jogadores':
        print('Jogo para dois jogadores.')
    else:
        print('Jogo contra o computador (%s).' % modo)
        print("O jogador joga com '%s'." % jog)
    t = cria_tabuleiro_vazio(n)
    print(tabuleiro_para_str(t))
    humano = 1 if jog == 'X' else -1
    j = cria_pedra_preta()
    while not eh_fim_jogo(t):
        if modo == '2jogadores':
            print("Turno do jogador '%s'." % pedra_para_str(j))
            p = escolhe_movimento_manual(t)
        elif j == humano:
            print('Turno do jogador.')
            p = escolhe_movimento_manual(t)
        else:
            print('Turno do computador (%s):' % modo)
            p = escolhe_movimento_auto(t, j, modo)
        coloca_pedra(t, p, j)
        roda_tabuleiro(t)
        print(tabuleiro_para_str(t))
        j = -j
    preto, branco = eh_vencedor(t, 1), eh_vencedor(t, -1)
    vencedor = 0 if preto == branco else (1 if preto else -1)
    if vencedor == 0:
        print('EMPATE')
    elif modo == '2jogadores':
        print("VITORIA DO JOGADOR '%s'" % pedra_para_str(vencedor))
    else:
        print('VITORIA' if vencedor == humano else 'DERROTA')
    return vencedor
