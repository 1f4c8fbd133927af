# 2.º projeto de FP: Orbito-n (um exemplo de aluno, para os testes do Tabuleiro).
#
# Representacoes internas:
#   posicao: tuplo (coluna, linha), por exemplo ('a', 1)
#   pedra:   cadeia de caracteres 'X' (preta), 'O' (branca) ou ' ' (neutra)
#   tabuleiro: lista de 2n listas (linhas), cada uma com 2n pedras

COLUNAS = 'abcdefghij'


# ---------------------------------------------------------------- posicao

def cria_posicao(col, lin):
    """str x int -> posicao"""
    if not (type(col) == str and len(col) == 1 and col in COLUNAS
            and type(lin) == int and 1 <= lin <= 10):
        raise ValueError('cria_posicao: argumentos invalidos')
    return (col, lin)


def obtem_pos_col(p):
    return p[0]


def obtem_pos_lin(p):
    return p[1]


def eh_posicao(arg):
    return (type(arg) == tuple and len(arg) == 2 and type(arg[0]) == str
            and len(arg[0]) == 1 and arg[0] in COLUNAS
            and type(arg[1]) == int and 1 <= arg[1] <= 10)


def posicoes_iguais(p1, p2):
    return eh_posicao(p1) and eh_posicao(p2) and p1 == p2


def posicao_para_str(p):
    return obtem_pos_col(p) + str(obtem_pos_lin(p))


def str_para_posicao(s):
    return cria_posicao(s[0], int(s[1:]))


def _xy(p):
    """posicao -> (indice da coluna, indice da linha), a partir de 0"""
    return COLUNAS.index(obtem_pos_col(p)), obtem_pos_lin(p) - 1


def _pos(x, y):
    return cria_posicao(COLUNAS[x], y + 1)


def eh_posicao_valida(p, n):
    x, y = _xy(p)
    return x < 2 * n and y < 2 * n


def obtem_posicoes_adjacentes(p, n, d):
    """Adjacentes em sentido horario, a comecar pela de cima."""
    x, y = _xy(p)
    if d:
        passos = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
    else:
        passos = ((0, -1), (1, 0), (0, 1), (-1, 0))
    return tuple(_pos(x + dx, y + dy) for dx, dy in passos
                 if 0 <= x + dx < 2 * n and 0 <= y + dy < 2 * n)


def _orbita(p, n):
    x, y = _xy(p)
    return n - min(x, y, 2 * n - 1 - x, 2 * n - 1 - y)


def ordena_posicoes(t, n):
    return tuple(sorted(t, key=lambda p: (_orbita(p, n), obtem_pos_lin(p), obtem_pos_col(p))))


# ---------------------------------------------------------------- pedra

def cria_pedra_branca():
    return 'O'


def cria_pedra_preta():
    return 'X'


def cria_pedra_neutra():
    return ' '


def eh_pedra(arg):
    return arg in ('O', 'X', ' ') and type(arg) == str


def eh_pedra_branca(p):
    return p == 'O'


def eh_pedra_preta(p):
    return p == 'X'


def pedras_iguais(p1, p2):
    return eh_pedra(p1) and eh_pedra(p2) and p1 == p2


def pedra_para_str(p):
    return p


def eh_pedra_jogador(p):
    return eh_pedra_branca(p) or eh_pedra_preta(p)


def pedra_para_int(p):
    return 1 if eh_pedra_preta(p) else -1 if eh_pedra_branca(p) else 0


# ---------------------------------------------------------------- tabuleiro

def cria_tabuleiro_vazio(n):
    if type(n) != int or not 2 <= n <= 5:
        raise ValueError('cria_tabuleiro_vazio: argumento invalido')
    return [[cria_pedra_neutra() for _ in range(2 * n)] for _ in range(2 * n)]


def cria_tabuleiro(n, tp, tb):
    if (type(n) != int or not 2 <= n <= 5 or type(tp) != tuple or type(tb) != tuple
            or not all(eh_posicao(p) and eh_posicao_valida(p, n) for p in tp + tb)
            or len(set(tp + tb)) != len(tp + tb)):
        raise ValueError('cria_tabuleiro: argumentos invalidos')
    t = cria_tabuleiro_vazio(n)
    for p in tp:
        coloca_pedra(t, p, cria_pedra_preta())
    for p in tb:
        coloca_pedra(t, p, cria_pedra_branca())
    return t


def cria_copia_tabuleiro(t):
    return [linha[:] for linha in t]


def obtem_numero_orbitas(t):
    return len(t) // 2


def obtem_pedra(t, p):
    x, y = _xy(p)
    return t[y][x]


def _linha(t, x, y, dx, dy):
    """As posicoes da linha que passa por (x, y) na direcao (dx, dy)."""
    m = len(t)
    while 0 <= x - dx < m and 0 <= y - dy < m:
        x, y = x - dx, y - dy
    res = ()
    while 0 <= x < m and 0 <= y < m:
        res += ((_pos(x, y), t[y][x]),)
        x, y = x + dx, y + dy
    return res


def obtem_linha_horizontal(t, p):
    return _linha(t, *_xy(p), 1, 0)


def obtem_linha_vertical(t, p):
    return _linha(t, *_xy(p), 0, 1)


def obtem_linhas_diagonais(t, p):
    return _linha(t, *_xy(p), 1, 1), _linha(t, *_xy(p), 1, -1)


def _todas_posicoes(t):
    m = len(t)
    return ordena_posicoes(tuple(_pos(x, y) for y in range(m) for x in range(m)), m // 2)


def obtem_posicoes_pedra(t, j):
    return tuple(p for p in _todas_posicoes(t) if pedras_iguais(obtem_pedra(t, p), j))


def coloca_pedra(t, p, j):
    x, y = _xy(p)
    t[y][x] = j
    return t


def remove_pedra(t, p):
    return coloca_pedra(t, p, cria_pedra_neutra())


def eh_tabuleiro(arg):
    return (type(arg) == list and len(arg) in (4, 6, 8, 10)
            and all(type(l) == list and len(l) == len(arg) and all(eh_pedra(p) for p in l) for l in arg))


def tabuleiros_iguais(t1, t2):
    return eh_tabuleiro(t1) and eh_tabuleiro(t2) and t1 == t2


def tabuleiro_para_str(t):
    m = len(t)
    linhas = ['    ' + '   '.join(COLUNAS[:m])]
    for y in range(m):
        if y:
            linhas.append('    ' + '   '.join('|' * m))
        linhas.append('{:02d} '.format(y + 1) + '-'.join('[' + pedra_para_str(p) + ']' for p in t[y]))
    return '\n'.join(linhas)


def move_pedra(t, p1, p2):
    j = obtem_pedra(t, p1)
    remove_pedra(t, p1)
    return coloca_pedra(t, p2, j)


def obtem_posicao_seguinte(t, p, s):
    n = obtem_numero_orbitas(t)
    x, y = _xy(p)
    lo = n - _orbita(p, n)
    hi = 2 * n - 1 - lo
    if s:  # sentido horario
        if y == lo and x < hi:
            return _pos(x + 1, y)
        if x == hi and y < hi:
            return _pos(x, y + 1)
        if y == hi and x > lo:
            return _pos(x - 1, y)
        return _pos(x, y - 1)
    if y == lo and x > lo:
        return _pos(x - 1, y)
    if x == lo and y < hi:
        return _pos(x, y + 1)
    if y == hi and x < hi:
        return _pos(x + 1, y)
    return _pos(x, y - 1)


def roda_tabuleiro(t):
    antes = cria_copia_tabuleiro(t)
    for p in _todas_posicoes(antes):
        coloca_pedra(t, obtem_posicao_seguinte(antes, p, False), obtem_pedra(antes, p))
    return t


def _maior_sequencia(linha, p, j):
    """Comprimento da sequencia de pedras j que contem p numa linha."""
    pos = [q for q, _ in linha]
    i = [k for k, q in enumerate(pos) if posicoes_iguais(q, p)][0]
    a = i
    while a > 0 and pedras_iguais(linha[a - 1][1], j):
        a -= 1
    b = i
    while b < len(linha) - 1 and pedras_iguais(linha[b + 1][1], j):
        b += 1
    return b - a + 1


def verifica_linha_pedras(t, p, j, k):
    if not pedras_iguais(obtem_pedra(t, p), j):
        return False
    linhas = (obtem_linha_horizontal(t, p), obtem_linha_vertical(t, p)) + obtem_linhas_diagonais(t, p)
    return any(_maior_sequencia(l, p, j) >= k for l in linhas)


# ---------------------------------------------------------------- jogo

def eh_vencedor(t, j):
    k = 2 * obtem_numero_orbitas(t)
    return any(verifica_linha_pedras(t, p, j, k) for p in obtem_posicoes_pedra(t, j))


def eh_fim_jogo(t):
    return (not obtem_posicoes_pedra(t, cria_pedra_neutra())
            or eh_vencedor(t, cria_pedra_preta()) or eh_vencedor(t, cria_pedra_branca()))


def escolhe_movimento_manual(t):
    n = obtem_numero_orbitas(t)
    while True:
        s = input('Escolha uma posicao livre:')
        if (len(s) in (2, 3) and s[0] in COLUNAS and s[1:].isdigit()
                and 1 <= int(s[1:]) <= 10 and s[1] != '0'):
            p = str_para_posicao(s)
            if eh_posicao_valida(p, n) and not eh_pedra_jogador(obtem_pedra(t, p)):
                return p


def _outra(j):
    return cria_pedra_branca() if eh_pedra_preta(j) else cria_pedra_preta()


def _sequencia_depois(t, p, j, rodas):
    """Maior sequencia de j por p colocando j em p e rodando o tabuleiro."""
    t2 = cria_copia_tabuleiro(t)
    for _ in range(rodas):
        roda_tabuleiro(t2)
        p = obtem_posicao_seguinte(t2, p, False)
    coloca_pedra(t2, p, j)
    k = 2 * obtem_numero_orbitas(t)
    return max(L for L in range(1, k + 1) if verifica_linha_pedras(t2, p, j, L))


def escolhe_movimento_auto(t, j, lvl):
    livres = obtem_posicoes_pedra(t, cria_pedra_neutra())
    n = obtem_numero_orbitas(t)
    if lvl == 'facil':
        for p in livres:
            t2 = roda_tabuleiro(coloca_pedra(cria_copia_tabuleiro(t), p, j))
            q = obtem_posicao_seguinte(t, p, False)
            if any(pedras_iguais(obtem_pedra(t2, a), j) for a in obtem_posicoes_adjacentes(q, n, True)):
                return p
        return livres[0]
    proprias = [_sequencia_depois(t, p, j, 1) for p in livres]
    ameacas = [_sequencia_depois(t, p, _outra(j), 2) for p in livres]
    L = max(proprias + ameacas)
    for p, v in zip(livres, proprias):
        if v >= L:
            return p
    for p, v in zip(livres, ameacas):
        if v >= L:
            return p


def orbito(n, modo, jog):
    if (type(n) != int or not 2 <= n <= 5 or modo not in ('facil', 'normal', '2jogadores')
            or jog not in ('X', 'O')):
        raise ValueError('orbito: argumentos invalidos')
    t = cria_tabuleiro_vazio(n)
    print('Bem-vindo ao ORBITO-{}.'.format(n))
    if modo == '2jogadores':
        print('Jogo para dois jogadores.')
    else:
        print('Jogo contra o computador ({}).'.format(modo))
        print("O jogador joga com '{}'.".format(jog))
    print(tabuleiro_para_str(t))
    vez = cria_pedra_preta()
    humano = cria_pedra_preta() if jog == 'X' else cria_pedra_branca()
    while not eh_fim_jogo(t):
        if modo == '2jogadores':
            print("Turno do jogador '{}'.".format(pedra_para_str(vez)))
            p = escolhe_movimento_manual(t)
        elif pedras_iguais(vez, humano):
            print('Turno do jogador.')
            p = escolhe_movimento_manual(t)
        else:
            print('Turno do computador ({}):'.format(modo))
            p = escolhe_movimento_auto(t, vez, modo)
        roda_tabuleiro(coloca_pedra(t, p, vez))
        print(tabuleiro_para_str(t))
        vez = _outra(vez)
    x, o = eh_vencedor(t, cria_pedra_preta()), eh_vencedor(t, cria_pedra_branca())
    resultado = 1 if x and not o else -1 if o and not x else 0
    if modo == '2jogadores':
        print("VITORIA DO JOGADOR '{}'".format('X' if resultado == 1 else 'O') if resultado else 'EMPATE')
    elif resultado == 0:
        print('EMPATE')
    else:
        print('VITORIA' if resultado == pedra_para_int(humano) else 'DERROTA')
    return resultado
