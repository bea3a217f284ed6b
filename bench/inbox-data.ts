/**
 * The inbox benchmarks' data set (issue 3, "Proof"): ONE company ("Bench Inbox") with 100,000 tickets,
 * 1,000,000 messages, 20 queues, 50 agents (profile user, each in 2–3 queues) plus an admin, 60,000
 * contacts, 10 tags — in the bench database, generated set-based (`INSERT … SELECT generate_series`),
 * deterministic (every "random" choice is `hashint8extended` of a row number and a salt).
 *
 *   node --import tsx bench/inbox-data.ts          # prepare the bench database and generate (or reuse)
 *   BENCH_INBOX_SCALE=0.1 … (a tenth of every count, to try the generator quickly)
 *
 * Shape: tickets 10% pending (unassigned, in a queue; 2% of them without one), 15% open, 75% closed,
 * spread over the queues and the agents (an assigned ticket sits in one of its agent's queues). Closed
 * tickets were created over the last 90 days, pending and open ones over the last week. 10 messages a
 * ticket on average (three in four tickets have 1–8, one in twelve 25–60, so some span several pages of
 * 30), alternating contact and agent, a few minutes apart; bodies are
 * Portuguese-looking sentences built from phrase pools with a skewed choice, so words have realistic
 * selectivity for the trigram search (`DATASET_WORDS` below, counted after generation). Rows are
 * inserted in time order (messages of different tickets interleave on disk as they do in production).
 *
 * Reuse: a marker (table `bench_meta`) records the data set's version, its scale and a fingerprint of
 * every migration; when it matches, nothing is generated. When it doesn't (first run, a changed
 * migration, an interrupted generation) the bench database is dropped, re-created and migrated by
 * `prepareDatabase`, then generated. During generation the secondary indexes of `tickets` and
 * `messages` (the trigram GIN index above all) are dropped and re-created from their own definitions
 * after the load, then the tables are vacuumed and analysed.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_COMPANY_SETTINGS, REPO_ROOT } from '@balcao/server';
import pg from 'pg';
import { BENCH_DATABASE, benchDatabaseUrl, dropBenchDatabase, prepareDatabase, withBenchDb } from './lib';

const DATASET_VERSION = 'inbox-v2';
export const BENCH_COMPANY_NAME = 'Bench Inbox';
export const BENCH_ADMIN_EMAIL = 'admin@bench.test';
/** Same password as the demo logins (its hash is copied from admin@acme.test). */
export const BENCH_PASSWORD = 'demo1234';

const SCALE = Number(process.env.BENCH_INBOX_SCALE ?? 1);
export const SIZES = {
  tickets: Math.round(100_000 * SCALE),
  messages: Math.round(1_000_000 * SCALE),
  contacts: Math.round(60_000 * SCALE),
  queues: 20,
  agents: 50,
  tags: 10,
};

/**
 * Search words of different selectivity (their share of messages is counted after generation; at full
 * scale about 13%, 1%, 0.15% and 0.03%), plus one protocol number found in the data (one message).
 */
export const DATASET_WORDS = ['obrigad', 'estorno', 'liquidificador', 'reembolso'] as const;

/** What the benchmarks need to know about the generated data. */
export interface InboxDataset {
  companyId: number;
  adminEmail: string;
  agents: Array<{ id: number; email: string; queueIds: number[] }>;
  queueIds: number[];
  counts: { tickets: number; messages: number; contacts: number; pending: number; open: number; closed: number };
  /** For each search word: how many messages contain it (ILIKE). */
  wordHits: Record<string, number>;
  /** Seconds the generation took; null when the data was reused. */
  generatedInSeconds: number | null;
}

// --- text pools (Portuguese customer-service chat) -------------------------------------------------

const OPENERS = [
  'Olá',
  'Oi',
  'Oi, tudo bem?',
  'Bom dia',
  'Boa tarde',
  'Boa noite',
  'Olá, bom dia!',
  'Oi, boa tarde',
  'Prezados,',
  'Opa',
  'Com licença',
  'Olá, tudo certo?',
  'Bom dia, tudo bem?',
  'Oi de novo',
  'Alô',
];

/** Chosen with a skew (the first ones are the most frequent). */
const CORE = [
  'quero saber quando chega meu pedido',
  'gostaria de falar com um atendente',
  'o produto ainda não foi entregue',
  'pode me enviar a segunda via do boleto?',
  'já fiz o pagamento por pix',
  'qual o prazo de entrega para minha cidade?',
  'vou verificar e já te retorno',
  'estou aguardando a confirmação',
  'recebi o produto mas veio errado',
  'consegue me passar o código de rastreio?',
  'o site não aceita meu cartão',
  'preciso trocar o tamanho da camiseta',
  'o boleto venceu ontem, como faço?',
  'vocês têm loja física em São Paulo?',
  'qual o horário de atendimento?',
  'a transportadora disse que não encontrou o endereço',
  'quero cancelar a compra',
  'o valor cobrado está diferente do anunciado',
  'como faço para acompanhar a entrega?',
  'aceitam pagamento parcelado no cartão?',
  'o cupom de desconto não funcionou',
  'meu cadastro está com o endereço antigo',
  'preciso da nota fiscal para a empresa',
  'o aplicativo fecha sozinho quando abro o carrinho',
  'vocês entregam no sábado?',
  'chegou amassada a caixa do produto',
  'posso retirar na loja?',
  'quanto custa o frete para o Rio de Janeiro?',
  'o pagamento foi aprovado?',
  'não recebi o e-mail de confirmação',
  'já paguei o boleto mas consta em aberto',
  'tem esse modelo na cor azul?',
  'o técnico pode vir amanhã de manhã?',
  'a garantia cobre esse defeito?',
  'estou sem internet desde ontem',
  'preciso alterar a data da instalação',
  'quero falar com o setor financeiro',
  'o atendente anterior disse que ia me ligar',
  'minha encomenda está parada há uma semana',
  'qual a política de devolução?',
  'o produto chegou com defeito na tampa',
  'vocês trabalham com atacado?',
  'o desconto vale para compras acima de cem reais?',
  'como altero minha senha no site?',
  'meu pedido foi cancelado sem motivo',
  'preciso de um orçamento para cinquenta unidades',
  'aguardo o retorno de vocês ainda hoje',
  'a fatura veio com cobrança duplicada',
  'o motoboy já saiu para entrega?',
  'pode confirmar o endereço de entrega, por favor?',
  'consegue gerar um novo boleto com vencimento para sexta?',
  'o estorno ainda não caiu no meu cartão',
  'o carregador parou de funcionar',
  'comprei dois e só veio um',
  'vocês emitem nota fiscal com CNPJ?',
  'a instalação ficou agendada para quinta',
  'quero mudar o plano para o anual',
  'a mensalidade aumentou sem aviso',
  'meu filho comprou sem querer, posso cancelar?',
  'o rastreio mostra entregue mas não recebi',
];

/** Rare phrases, each with its own uncommon words. */
const RARE = [
  'a geladeira não está gelando direito',
  'o liquidificador faz um barulho estranho',
  'a cafeteira vaza água por baixo',
  'o ventilador de teto veio sem o controle',
  'a bicicleta chegou com o pneu furado',
  'o colchão tem um cheiro forte',
  'a impressora não reconhece o cartucho',
  'o aspirador perdeu a potência',
  'a fritadeira elétrica não esquenta',
  'o micro-ondas desliga sozinho',
  'a panela de pressão veio sem a borracha',
  'o notebook esquenta muito',
  'a máquina de lavar não centrifuga',
  'o ar-condicionado pinga dentro do quarto',
  'a churrasqueira veio com peça faltando',
  'o guarda-roupa veio sem os parafusos',
  'o fogão está com a chama amarela',
  'o relógio parou depois de uma semana',
  'a mochila rasgou na alça',
  'o tênis descolou a sola',
  'preciso de reembolso integral',
  'a cadeira gamer veio com o pistão quebrado',
  'o purificador de água está vazando',
  'a sanduicheira queimou na primeira vez',
  'o secador de cabelo cheira a queimado',
];

const CLOSERS = [
  'Obrigado!',
  'Obrigada!',
  'Muito obrigado pela ajuda',
  'Muito obrigada',
  'Fico no aguardo',
  'Aguardo retorno',
  'Valeu',
  'Até mais',
  'Att.',
  'Grato',
  'Agradeço desde já',
  'Obrigado pela atenção',
  'Tenham um bom dia',
  'Qualquer coisa aviso',
  'Combinado',
  'Perfeito, obrigado',
];

const FIRST_NAMES = [
  'Maria',
  'José',
  'Ana',
  'João',
  'Antônio',
  'Francisca',
  'Carlos',
  'Paulo',
  'Adriana',
  'Lucas',
  'Juliana',
  'Marcos',
  'Luiz',
  'Márcia',
  'Fernanda',
  'Pedro',
  'Patrícia',
  'Gabriel',
  'Aline',
  'Rafael',
  'Camila',
  'Daniel',
  'Sandra',
  'Marcelo',
  'Bruna',
  'Bruno',
  'Amanda',
  'Eduardo',
  'Letícia',
  'Felipe',
  'Larissa',
  'Raimundo',
  'Vanessa',
  'Rodrigo',
  'Jéssica',
  'Thiago',
  'Beatriz',
  'Mateus',
  'Gabriela',
  'André',
  'Cláudia',
  'Fábio',
  'Renata',
  'Leonardo',
  'Tatiane',
  'Gustavo',
  'Simone',
  'Vinícius',
  'Débora',
  'Sebastião',
];
const LAST_NAMES = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
  'Rocha',
  'Dias',
  'Nascimento',
  'Andrade',
  'Moreira',
  'Nunes',
  'Marques',
  'Machado',
  'Mendes',
  'Freitas',
  'Cardoso',
  'Ramos',
  'Gonçalves',
  'Santana',
  'Teixeira',
  'Araújo',
  'Pinto',
  'Cavalcanti',
  'Monteiro',
  'Moura',
];
const QUEUE_NAMES = [
  'Vendas',
  'Suporte',
  'Financeiro',
  'Cobrança',
  'Trocas e Devoluções',
  'Entregas',
  'Pós-venda',
  'Comercial',
  'Atendimento Geral',
  'Ouvidoria',
  'SAC',
  'Garantia',
  'Instalação',
  'Assistência Técnica',
  'Marketplace',
  'Atacado',
  'Varejo',
  'Cadastro',
  'Retenção',
  'Clientes VIP',
];
const TAG_NAMES = [
  'Urgente',
  'Reclamação',
  'Elogio',
  'Novo cliente',
  'Recorrente',
  'Aguardando peça',
  'Reembolso',
  'Atacado',
  'Indicação',
  'Revisar',
];

/** The queue indexes (0–19) of agent `a` (0–49): two for odd agents, three for even ones. */
export function agentQueueIndexes(a: number): number[] {
  const queues = [a % 20, (a + 7) % 20];
  if (a % 2 === 0) queues.push((a + 13) % 20);
  return queues;
}

const sqlText = (text: string) => `'${text.replaceAll("'", "''")}'`;
const sqlArray = (values: readonly string[]) => `ARRAY[${values.map(sqlText).join(', ')}]::text[]`;

/** A fingerprint of every migration (core and features): a changed schema means a new data set. */
function migrationsFingerprint(): string {
  const hash = createHash('sha256');
  const dirs = [path.join(REPO_ROOT, 'server', 'src', 'db', 'migrations')];
  for (const root of ['modules', 'plugins']) {
    for (const feature of safeReaddir(path.join(REPO_ROOT, root))) {
      dirs.push(path.join(REPO_ROOT, root, feature, 'server', 'migrations'));
    }
  }
  for (const dir of dirs) {
    for (const file of safeReaddir(dir).sort()) {
      if (!/\.(ts|js|mjs)$/.test(file) || file.endsWith('.test.ts')) continue;
      hash.update(`${path.relative(REPO_ROOT, path.join(dir, file))}\n`);
      hash.update(readFileSync(path.join(dir, file)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function markerValue(): string {
  return `${DATASET_VERSION}:scale=${SCALE}:migrations=${migrationsFingerprint()}`;
}

async function readMarker(): Promise<string | null> {
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  try {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [BENCH_DATABASE]);
    if (exists.rowCount === 0) return null;
  } finally {
    await admin.end();
  }
  return withBenchDb(async (client) => {
    const table = await client.query("select to_regclass('bench_meta') as t");
    if (!table.rows[0]?.t) return null;
    const row = await client.query("select value from bench_meta where key = 'inbox'");
    return (row.rows[0]?.value as string | undefined) ?? null;
  });
}

function adminUrl(): string {
  const url = new URL(benchDatabaseUrl());
  url.pathname = '/postgres';
  return url.toString();
}

/**
 * Makes sure the bench database holds the inbox data set: reuses it when the marker matches, else
 * re-creates the database (migrated and demo-seeded by `prepareDatabase`) and generates it.
 */
export async function ensureInboxDataset(log: (line: string) => void = console.log): Promise<InboxDataset> {
  const marker = markerValue();
  let generatedInSeconds: number | null = null;
  if ((await readMarker()) !== marker) {
    log(`inbox data: generating in ${BENCH_DATABASE} (${SIZES.tickets} tickets, ${SIZES.messages} messages)…`);
    const began = performance.now();
    await dropBenchDatabase();
    await prepareDatabase();
    await withBenchDb((client) => generate(client, log));
    await withBenchDb((client) =>
      client.query(
        `create table if not exists bench_meta (key text primary key, value text not null);
         insert into bench_meta (key, value) values ('inbox', ${sqlText(marker)})
         on conflict (key) do update set value = excluded.value`,
      ),
    );
    generatedInSeconds = (performance.now() - began) / 1000;
    log(`inbox data: generated in ${generatedInSeconds.toFixed(0)} s`);
  } else {
    log('inbox data: reusing the generated data set');
  }
  const dataset = await withBenchDb(describeDataset);
  return { ...dataset, generatedInSeconds };
}

async function step(client: pg.Client, log: (line: string) => void, label: string, sql: string, params: unknown[] = []) {
  const began = performance.now();
  const result = await client.query(sql, params);
  log(`  ${label}: ${((performance.now() - began) / 1000).toFixed(1)} s`);
  return result;
}

async function generate(client: pg.Client, log: (line: string) => void): Promise<void> {
  const { tickets: T, messages: M, contacts: C, queues: Q, agents: A, tags: G } = SIZES;
  // triggers off for the load (the inbox's search documents are kept by triggers on messages: built once,
  // set-based, after it)
  await client.query(
    `SET maintenance_work_mem = '1GB'; SET work_mem = '256MB'; SET synchronous_commit = off; SET session_replication_role = replica`,
  );

  // deterministic uniform [0,1) of a row number and a salt; the message body of a message key
  await client.query(`
    CREATE FUNCTION pg_temp.u(k bigint, salt bigint) RETURNS float8 LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
      $$ SELECT (hashint8extended(k, salt) & 2147483647)::float8 / 2147483648.0 $$;
    CREATE FUNCTION pg_temp.pick(pool text[], x float8) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
      $$ SELECT pool[1 + floor(x * cardinality(pool))::int] $$;
    CREATE FUNCTION pg_temp.body(k bigint) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
      SELECT concat_ws(' ',
        CASE WHEN pg_temp.u(k, 11) < 0.4 THEN pg_temp.pick(${sqlArray(OPENERS)}, pg_temp.u(k, 12)) END,
        pg_temp.pick(${sqlArray(CORE)}, power(pg_temp.u(k, 13), 1.7)),
        CASE
          WHEN pg_temp.u(k, 14) < 0.10 THEN 'pedido nº ' || (100000 + (k * 7919) % 900000)
          WHEN pg_temp.u(k, 14) < 0.15 THEN 'protocolo ' || lpad(((k * 104729) % 100000000)::text, 8, '0')
          WHEN pg_temp.u(k, 14) < 0.17 THEN pg_temp.pick(${sqlArray(RARE)}, power(pg_temp.u(k, 15), 2))
        END,
        CASE WHEN pg_temp.u(k, 16) < 0.35 THEN pg_temp.pick(${sqlArray(CLOSERS)}, pg_temp.u(k, 17)) END)
    $$;`);

  const hash = (await client.query("select password_hash from users where lower(email) = 'admin@acme.test'")).rows[0]
    ?.password_hash as string | undefined;
  if (!hash) throw new Error('the demo seed has no admin@acme.test to copy the password hash from');

  // plan, company, settings
  const planId = (
    await client.query(`INSERT INTO plans (name, users, connections, queues, amount, is_public)
      VALUES ('Bench', 9999, 9999, 9999, 0, false) RETURNING id`)
  ).rows[0].id as number;
  const flags = (await client.query(
    `SELECT column_name FROM information_schema.columns WHERE table_name = 'plans' AND data_type = 'boolean' AND column_name LIKE 'use%'`,
  )) as pg.QueryResult<{ column_name: string }>;
  if (flags.rows.length > 0) {
    await client.query(`UPDATE plans SET ${flags.rows.map((r) => `${r.column_name} = true`).join(', ')} WHERE id = $1`, [planId]);
  }
  const companyId = (
    await client.query(
      `INSERT INTO companies (name, email, plan_id, due_date, status) VALUES ($1, $2, $3, '2999-12-31', true) RETURNING id`,
      [BENCH_COMPANY_NAME, BENCH_ADMIN_EMAIL, planId],
    )
  ).rows[0].id as number;
  const settings = Object.entries(DEFAULT_COMPANY_SETTINGS);
  await client.query(
    `INSERT INTO settings (company_id, key, value) SELECT $1, k, v FROM unnest($2::text[], $3::text[]) AS s(k, v)`,
    [companyId, settings.map(([k]) => k), settings.map(([, v]) => v)],
  );

  // users: the admin, then 50 agents; queues and memberships
  await client.query(
    `INSERT INTO users (company_id, name, email, password_hash, profile, show_dashboard) VALUES ($1, 'Bench Admin', $2, $3, 'admin', 'enabled')`,
    [companyId, BENCH_ADMIN_EMAIL, hash],
  );
  await client.query(
    `INSERT INTO users (company_id, name, email, password_hash, profile)
     SELECT $1, pg_temp.pick(${sqlArray(FIRST_NAMES)}, pg_temp.u(a, 1)) || ' ' || pg_temp.pick(${sqlArray(LAST_NAMES)}, pg_temp.u(a, 2)),
            'agent' || lpad((a + 1)::text, 2, '0') || '@bench.test', $2, 'user'
     FROM generate_series(0, $3 - 1) a ORDER BY a`,
    [companyId, hash, A],
  );
  await client.query(
    `INSERT INTO queues (company_id, name, color, order_queue)
     SELECT $1, q.name, '#' || lpad(to_hex((q.i * 2654435761) % 16777216), 6, '0'), q.i FROM unnest($2::text[]) WITH ORDINALITY q(name, i) ORDER BY q.i`,
    [companyId, QUEUE_NAMES.slice(0, Q)],
  );
  await client.query(
    `CREATE TEMP TABLE bq AS SELECT row_number() OVER (ORDER BY id) - 1 AS qi, id FROM queues WHERE company_id = ${companyId};
     CREATE TEMP TABLE ba AS SELECT row_number() OVER (ORDER BY email) - 1 AS ai, id FROM users WHERE company_id = ${companyId} AND profile = 'user';`,
  );
  // agent a's k-th queue: (a, a+7, a+13 for even agents) mod 20, as agentQueueIndexes
  await client.query(`
    CREATE TEMP TABLE baq AS
      SELECT ba.ai, ba.id AS user_id, k, bq.id AS queue_id,
             CASE WHEN ba.ai % 2 = 0 THEN 3 ELSE 2 END AS nq
      FROM ba CROSS JOIN generate_series(0, 2) k
      JOIN bq ON bq.qi = (ba.ai + (ARRAY[0, 7, 13])[k + 1]) % 20
      WHERE k < CASE WHEN ba.ai % 2 = 0 THEN 3 ELSE 2 END;
    INSERT INTO user_queues (company_id, user_id, queue_id) SELECT ${companyId}, user_id, queue_id FROM baq;
    CREATE INDEX ON baq (ai, k);`);

  // contacts and their channel identities
  const contactBase = Number((await client.query('SELECT coalesce(max(id), 0) AS m FROM contacts')).rows[0].m);
  await step(
    client,
    log,
    `contacts (${C})`,
    `INSERT INTO contacts (id, company_id, name, number, email, channel, created_at, updated_at)
     SELECT $1 + n, $2,
            pg_temp.pick(${sqlArray(FIRST_NAMES)}, pg_temp.u(n, 21)) || ' ' ||
              CASE WHEN pg_temp.u(n, 22) < 0.4 THEN pg_temp.pick(${sqlArray(LAST_NAMES)}, pg_temp.u(n, 23)) || ' ' ELSE '' END ||
              pg_temp.pick(${sqlArray(LAST_NAMES)}, pg_temp.u(n, 24)),
            '55' || (11 + floor(pg_temp.u(n, 25) * 88)::int) || '9' || lpad(((n * 7919) % 100000000)::text, 8, '0'),
            CASE WHEN pg_temp.u(n, 26) < 0.2 THEN 'cliente' || n || '@exemplo.com.br' END,
            'whatsapp', now() - interval '120 days' + n * interval '1 second', now() - interval '120 days' + n * interval '1 second'
     FROM generate_series(1, $3) n`,
    [contactBase, companyId, C],
  );
  await client.query(`SELECT setval(pg_get_serial_sequence('contacts', 'id'), (SELECT max(id) FROM contacts))`);
  await step(
    client,
    log,
    'contact identities',
    `INSERT INTO contact_identities (company_id, contact_id, channel, identifier)
     SELECT company_id, id, 'whatsapp', number || '@s.whatsapp.net' FROM contacts WHERE company_id = $1`,
    [companyId],
  );

  // tags: on a fifth of the contacts and a seventh of the tickets
  await client.query(
    `INSERT INTO tags (company_id, name, color) SELECT $1, name, '#' || lpad(to_hex((i * 40503) % 16777216), 6, '0')
     FROM unnest($2::text[]) WITH ORDINALITY t(name, i)`,
    [companyId, TAG_NAMES.slice(0, G)],
  );
  await client.query(
    `CREATE TEMP TABLE bt AS SELECT row_number() OVER (ORDER BY id) - 1 AS ti, id FROM tags WHERE company_id = $1`,
    [companyId],
  );
  await client.query(
    `INSERT INTO contact_tags (company_id, contact_id, tag_id)
     SELECT $1, c.id, bt.id FROM contacts c JOIN bt ON bt.ti = c.id % ${G} WHERE c.company_id = $1 AND c.id % 5 = 0`,
    [companyId],
  );

  // secondary indexes of tickets and messages go during the load and come back from their definitions
  const indexes = (
    await client.query(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
       WHERE i.schemaname = 'public' AND i.tablename IN ('tickets', 'messages')
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    )
  ).rows as Array<{ indexname: string; indexdef: string }>;
  for (const index of indexes) await client.query(`DROP INDEX "${index.indexname}"`);

  // tickets: g = 0 … T-1; status by a hash; contacts distinct among not-closed tickets (one active per contact)
  const ticketBase = Number((await client.query('SELECT coalesce(max(id), 0) AS m FROM tickets')).rows[0].m);
  await client.query(`
    CREATE TEMP TABLE bg AS
    WITH s AS (
      SELECT g,
             CASE WHEN pg_temp.u(g, 1) < 0.10 THEN 'pending' WHEN pg_temp.u(g, 1) < 0.25 THEN 'open' ELSE 'closed' END AS status,
             floor(pg_temp.u(g, 3) * ${A})::int AS ai,
             pg_temp.u(g, 4) AS uq,
             CASE WHEN pg_temp.u(g, 10) < 0.74 THEN 1 + floor(pg_temp.u(g, 11) * 8)::int
                  WHEN pg_temp.u(g, 10) < 0.92 THEN 9 + floor(pg_temp.u(g, 11) * 16)::int
                  ELSE 25 + floor(pg_temp.u(g, 11) * 36)::int END AS nmsg,
             1 + floor(pg_temp.u(g, 7) * 15)::int AS step_min
      FROM generate_series(0, ${T - 1}) g
    )
    SELECT s.*, row_number() OVER (PARTITION BY s.status = 'closed' ORDER BY g) - 1 AS rk FROM s`);
  // exactly M messages: one more (or one less) on as many tickets as the total is short (or over)
  const total = Number((await client.query('SELECT sum(nmsg) AS n FROM bg')).rows[0].n);
  if (total < M) await client.query(`UPDATE bg SET nmsg = nmsg + 1 WHERE g < ${M - total}`);
  if (total > M) {
    await client.query(
      `UPDATE bg SET nmsg = nmsg - 1 WHERE g IN (SELECT g FROM bg WHERE nmsg > 1 ORDER BY g LIMIT ${total - M})`,
    );
  }
  // a conversation still open started at least 12 hours ago and fits in 11 of them
  await client.query("UPDATE bg SET step_min = greatest(1, least(step_min, 660 / nmsg)) WHERE status <> 'closed'");
  await client.query(`
    ALTER TABLE bg ADD COLUMN contact_id int, ADD COLUMN user_id int, ADD COLUMN queue_id int,
      ADD COLUMN created_at timestamptz, ADD COLUMN id int;
    UPDATE bg SET
      contact_id = ${contactBase} + 1 + CASE WHEN status = 'closed' THEN floor(pg_temp.u(g, 2) * ${C})::int ELSE (rk * 7919) % ${C} END,
      user_id = CASE WHEN status = 'pending' OR (status = 'closed' AND pg_temp.u(g, 5) < 0.05) THEN NULL
                     ELSE (SELECT id FROM ba WHERE ba.ai = bg.ai) END,
      queue_id = CASE
        WHEN status = 'pending' AND pg_temp.u(g, 6) < 0.02 THEN NULL
        WHEN status = 'pending' OR (status = 'closed' AND pg_temp.u(g, 5) < 0.05) THEN (SELECT id FROM bq WHERE bq.qi = floor(uq * ${Q})::int)
        ELSE (SELECT queue_id FROM baq WHERE baq.ai = bg.ai AND baq.k = floor(uq * (CASE WHEN bg.ai % 2 = 0 THEN 3 ELSE 2 END))::int) END,
      created_at = CASE WHEN status = 'closed' THEN now() - interval '1 day' - interval '89 days' * pg_temp.u(g, 8)
                        ELSE now() - interval '12 hours' - interval '7 days' * power(pg_temp.u(g, 8), 2) END;
    UPDATE bg SET id = ${ticketBase} + o.n FROM (SELECT g, row_number() OVER (ORDER BY created_at, g) AS n FROM bg) o WHERE o.g = bg.g;
    CREATE UNIQUE INDEX ON bg (id);`);
  await step(
    client,
    log,
    `tickets (${T})`,
    `INSERT INTO tickets (id, company_id, status, contact_id, user_id, queue_id, channel, unread_messages, last_message,
                          closed_at, created_at, updated_at)
     SELECT id, $1, status, contact_id, user_id, queue_id, 'whatsapp',
            CASE status WHEN 'pending' THEN 1 + floor(pg_temp.u(g, 9) * 5)::int WHEN 'open' THEN floor(pg_temp.u(g, 9) * 3)::int ELSE 0 END,
            pg_temp.body(g * 100 + nmsg),
            CASE WHEN status = 'closed' THEN created_at + nmsg * step_min * interval '1 minute' + interval '5 minutes' END,
            created_at,
            created_at + nmsg * step_min * interval '1 minute' + CASE WHEN status = 'closed' THEN interval '5 minutes' ELSE interval '0' END
     FROM bg ORDER BY id`,
    [companyId],
  );
  await client.query(`SELECT setval(pg_get_serial_sequence('tickets', 'id'), (SELECT max(id) FROM tickets))`);
  await client.query(
    `INSERT INTO ticket_tags (company_id, ticket_id, tag_id)
     SELECT $1, bg.id, bt.id FROM bg JOIN bt ON bt.ti = bg.g % ${G} WHERE bg.g % 7 = 0`,
    [companyId],
  );

  // messages: seq 1 … nmsg of each ticket, contact first, then alternating (pending tickets: contact only)
  const messageBase = Number((await client.query('SELECT coalesce(max(id), 0) AS m FROM messages')).rows[0].m);
  await step(
    client,
    log,
    `messages (${M})`,
    `INSERT INTO messages (id, company_id, ticket_id, contact_id, user_id, queue_id, channel_message_id, body, from_me,
                           ack, read, media_type, media_path, media_name, created_at, updated_at)
     SELECT $2 + row_number() OVER (ORDER BY x.at, x.ticket_id, x.seq), $1, x.ticket_id, x.contact_id,
            CASE WHEN x.from_me THEN x.user_id END, x.queue_id,
            CASE WHEN NOT x.from_me THEN 'BENCH' || x.k END,
            CASE WHEN x.media = 'audio' THEN '' ELSE pg_temp.body(x.k) END,
            x.from_me, CASE WHEN x.from_me THEN 3 ELSE 0 END, x.status = 'closed' OR x.seq <= x.nmsg - 3,
            x.media,
            CASE WHEN x.media <> 'chat' THEN 'bench/' || x.k || CASE x.media WHEN 'image' THEN '.jpg' ELSE '.ogg' END END,
            CASE WHEN x.media = 'image' THEN 'foto-' || x.k || '.jpg' END,
            x.at, x.at
     FROM (
       SELECT bg.id AS ticket_id, bg.contact_id, bg.user_id, bg.queue_id, bg.status, bg.nmsg, s AS seq, bg.g * 100 + s AS k,
              (bg.status <> 'pending' AND s % 2 = 0) AS from_me,
              CASE WHEN pg_temp.u(bg.g * 100 + s, 31) < 0.04 THEN 'image' WHEN pg_temp.u(bg.g * 100 + s, 31) < 0.05 THEN 'audio' ELSE 'chat' END AS media,
              bg.created_at + s * bg.step_min * interval '1 minute' AS at
       FROM bg, generate_series(1, bg.nmsg) s
     ) x
     ORDER BY x.at, x.ticket_id, x.seq`,
    [companyId, messageBase],
  );
  await client.query(`SELECT setval(pg_get_serial_sequence('messages', 'id'), (SELECT max(id) FROM messages))`);

  for (const index of indexes) {
    await step(client, log, `index ${index.indexname}`, index.indexdef);
  }
  await client.query('SET session_replication_role = DEFAULT');
  // what the inbox's triggers keep (its migrations 0002 and 0003), built once set-based
  if ((await client.query("SELECT to_regproc('inbox_rebuild_search_docs') AS f")).rows[0]?.f) {
    await step(client, log, 'search documents', 'SELECT inbox_rebuild_search_docs(NULL)');
  }
  if ((await client.query("SELECT to_regproc('inbox_rebuild_tag_ids') AS f")).rows[0]?.f) {
    await step(client, log, 'ticket tag ids', 'SELECT inbox_rebuild_tag_ids()');
  }
  await step(client, log, 'vacuum analyze', 'VACUUM ANALYZE');
}

/** Reads back what the benchmarks need: the company, its users and queues, counts and word hits. */
async function describeDataset(client: pg.Client): Promise<Omit<InboxDataset, 'generatedInSeconds'>> {
  const company = await client.query('SELECT id FROM companies WHERE name = $1 ORDER BY id LIMIT 1', [BENCH_COMPANY_NAME]);
  const companyId = company.rows[0]?.id as number | undefined;
  if (!companyId) throw new Error('no bench company: the data set was not generated');
  const agents = (
    await client.query(
      `SELECT u.id, u.email, coalesce(array_agg(uq.queue_id ORDER BY uq.queue_id) FILTER (WHERE uq.queue_id IS NOT NULL), '{}') AS queue_ids
       FROM users u LEFT JOIN user_queues uq ON uq.user_id = u.id
       WHERE u.company_id = $1 AND u.profile = 'user' GROUP BY u.id ORDER BY u.email`,
      [companyId],
    )
  ).rows.map((row) => ({ id: row.id as number, email: row.email as string, queueIds: row.queue_ids as number[] }));
  const queueIds = (await client.query('SELECT id FROM queues WHERE company_id = $1 ORDER BY id', [companyId])).rows.map(
    (row) => row.id as number,
  );
  const statuses = (
    await client.query('SELECT status, count(*)::int AS n FROM tickets WHERE company_id = $1 GROUP BY status', [companyId])
  ).rows as Array<{ status: string; n: number }>;
  const countOf = (status: string) => statuses.find((row) => row.status === status)?.n ?? 0;
  const messages = Number(
    (await client.query('SELECT count(*)::int AS n FROM messages WHERE company_id = $1', [companyId])).rows[0].n,
  );
  const contacts = Number(
    (await client.query('SELECT count(*)::int AS n FROM contacts WHERE company_id = $1', [companyId])).rows[0].n,
  );
  const protocol = (
    await client.query(
      `SELECT substring(body from 'protocolo [0-9]{8}') AS p FROM messages
       WHERE company_id = $1 AND body LIKE '%protocolo %' ORDER BY id LIMIT 1 OFFSET 100`,
      [companyId],
    )
  ).rows[0]?.p as string | undefined;
  const wordHits: Record<string, number> = {};
  for (const word of [...DATASET_WORDS, ...(protocol ? [protocol] : [])]) {
    wordHits[word] = Number(
      (
        await client.query('SELECT count(*)::int AS n FROM messages WHERE company_id = $1 AND body ILIKE $2', [
          companyId,
          `%${word}%`,
        ])
      ).rows[0].n,
    );
  }
  return {
    companyId,
    adminEmail: BENCH_ADMIN_EMAIL,
    agents,
    queueIds,
    counts: {
      tickets: statuses.reduce((sum, row) => sum + row.n, 0),
      messages,
      contacts,
      pending: countOf('pending'),
      open: countOf('open'),
      closed: countOf('closed'),
    },
    wordHits,
  };
}

/** The search words with their hits and a word for their selectivity, most frequent first. */
export function searchWords(dataset: InboxDataset): Array<{ text: string; hits: number; label: string }> {
  return Object.entries(dataset.wordHits)
    .map(([text, hits]) => {
      const share = hits / Math.max(1, dataset.counts.messages);
      const label =
        hits <= 1
          ? 'unique'
          : `${share >= 0.05 ? 'common' : share >= 0.005 ? 'medium' : share >= 0.001 ? 'rare' : 'very rare'}, ${(share * 100).toFixed(share >= 0.01 ? 0 : share >= 0.001 ? 2 : 3)}%`;
      return { text, hits, label };
    })
    .sort((a, b) => b.hits - a.hits);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureInboxDataset()
    .then((dataset) => {
      console.log(JSON.stringify({ ...dataset, agents: dataset.agents.slice(0, 3) }, null, 2));
    })
    .catch((error: Error) => {
      console.error(error);
      process.exit(1);
    });
}
