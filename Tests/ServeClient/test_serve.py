"""tandem serve, driven by the official openai client, raw sockets and a second Tandem host.

Run by `make test-serve-client` with TANDEM_BIN pointing at the built `tandem`; every server is a
real `tandem serve` process on a free port, its backends the fake plugin (tandem.fake).
"""
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import openai

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TANDEM = os.environ.get("TANDEM_BIN", os.path.join(ROOT, ".build", "release", "tandem"))
PLUGINS = os.path.join(ROOT, "plugins.d")
KEY = "serve-test-key-7f3a9c"
SLOW_REPLY = " ".join(f"word{i}" for i in range(50))  # 50 tokens at 200 ms: 10 s uncancelled
WEATHER_CALL = [{"name": "weather", "arguments": {"city": "Bern"}, "id": "call-w1"}]


def fake(kind, **settings):
    settings = {"kind": kind, **settings}
    return {"plugin": "tandem.fake", "isolation": "in-process", "settings": settings}


class Server:
    """One `tandem serve` process on a free port; its stderr lines are kept."""

    def __init__(self, config, *flags, env=None):
        self.dir = tempfile.mkdtemp(prefix="tandem-serve-test-")
        self.config = os.path.join(self.dir, "tandem.json")
        with open(self.config, "w") as f:
            json.dump({"plugins_dir": PLUGINS, **config}, f)
        self.process = subprocess.Popen(
            [TANDEM, "--config", self.config, "serve", "--port", "0", *flags],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env={**os.environ, **(env or {})})
        self.lines = []
        self.port = None
        started = threading.Event()

        def read():
            for line in self.process.stderr:
                self.lines.append(line.rstrip("\n"))
                match = re.search(r"listening on http://\S+:(\d+)", line)
                if match:
                    self.port = int(match.group(1))
                    started.set()
            started.set()

        threading.Thread(target=read, daemon=True).start()
        if not started.wait(60) or self.port is None:
            self.stop()
            raise RuntimeError("tandem serve did not start: " + "\n".join(self.lines))
        self.base = f"http://127.0.0.1:{self.port}/v1"

    def client(self, key="unused", **options):
        return openai.OpenAI(base_url=self.base, api_key=key, max_retries=0, timeout=60, **options)

    def health(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        connection.request("GET", "/health")
        return json.loads(connection.getresponse().read())

    def raw(self, method, path, body=b"", headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(40)
            except subprocess.TimeoutExpired:
                self.process.kill()


MAIN_CONFIG = {
    "backends": {
        "local": fake("local", reply="Hello from the fake local model.", model_version="fake-local-v1",
                      tool_calls=json.dumps(WEATHER_CALL), guided_reply='{"city": "Bern", "celsius": 21}'),
        "cloud": fake("cloud", reply="From the cloud.", model_version="fake-cloud-v1", concurrent="true"),
        "slow": fake("local", reply=SLOW_REPLY, token_delay_ms="200", model_version="fake-slow-v1"),
        "json": fake("local", reply='{"ok": true}'),
        # The same in a tandem-plugin-host child process (the default isolation).
        "slow-isolated": {"plugin": "tandem.fake", "settings": {"kind": "local", "reply": SLOW_REPLY, "token_delay_ms": "200"}},
    },
    "primary": "local",
    "secondary": "cloud",
}

WEATHER_TOOL = {"type": "function", "function": {
    "name": "weather", "description": "Weather for a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}


class MainServerTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server(MAIN_CONFIG, "--idle-timeout", "3")
        cls.client = cls.server.client()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    # ---- chat --------------------------------------------------------------------------

    def test_chat_whole_names_the_serving_model(self):
        raw = self.client.chat.completions.with_raw_response.create(
            model="tandem", messages=[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}])
        completion = raw.parse()
        self.assertEqual(completion.choices[0].message.content, "Hello from the fake local model.")
        self.assertEqual(completion.choices[0].finish_reason, "stop")
        self.assertEqual(completion.model, "fake-local-v1")
        self.assertEqual(raw.headers["x-tandem-served-by"], "local")
        self.assertEqual(raw.headers["x-tandem-model-version"], "fake-local-v1")
        tandem = completion.model_extra["tandem"]
        self.assertEqual(tandem["servedBy"], "local")
        self.assertEqual(tandem["fallback"], {"primary": "local", "primaryTried": True, "reason": None, "detail": None})
        self.assertGreater(completion.usage.prompt_tokens, 0)
        self.assertEqual(completion.usage.completion_tokens, 6)

    def test_model_names_a_mode_or_a_backend(self):
        cloud = self.client.chat.completions.create(model="cloud", messages=[{"role": "user", "content": "Hi"}])
        self.assertEqual(cloud.choices[0].message.content, "From the cloud.")
        self.assertEqual(cloud.model, "fake-cloud-v1")
        with self.assertRaises(openai.NotFoundError) as caught:
            self.client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "Hi"}])
        self.assertIn('model "gpt-4o" does not exist', caught.exception.message)
        self.assertEqual(caught.exception.code, "model_not_found")

    def test_options_reach_the_backend(self):
        answer = self.client.chat.completions.create(
            model="local", messages=[{"role": "user", "content": "Hi"}], max_tokens=2, temperature=0.3, top_p=0.9, seed=7)
        self.assertEqual(answer.choices[0].message.content, "Hello from")
        self.assertEqual(answer.choices[0].finish_reason, "length")
        stopped = self.client.chat.completions.create(model="local", messages=[{"role": "user", "content": "Hi"}], stop=["local"])
        self.assertEqual(stopped.choices[0].message.content, "Hello from the fake ")

    def test_chat_streamed_ends_with_usage_and_done(self):
        stream = self.client.chat.completions.create(
            model="tandem", messages=[{"role": "user", "content": "Hi"}], stream=True, stream_options={"include_usage": True})
        chunks = list(stream)
        text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
        self.assertEqual(text, "Hello from the fake local model.")
        finish = [c for c in chunks if c.choices and c.choices[0].finish_reason]
        self.assertEqual(len(finish), 1)
        self.assertEqual(finish[0].choices[0].finish_reason, "stop")
        self.assertEqual(finish[0].model, "fake-local-v1")
        self.assertEqual(finish[0].model_extra["tandem"]["servedBy"], "local")
        self.assertEqual(chunks[-1].choices, [])
        self.assertEqual(chunks[-1].usage.completion_tokens, 6)
        # The wire itself ends with [DONE].
        status, headers, body = self.server.raw("POST", "/v1/chat/completions", json.dumps(
            {"model": "tandem", "stream": True, "messages": [{"role": "user", "content": "Hi"}]}).encode(),
            {"Content-Type": "application/json"})
        self.assertEqual(status, 200)
        self.assertEqual(headers["Content-Type"], "text/event-stream")
        self.assertEqual(headers["X-Tandem-Served-By"], "local")
        self.assertTrue(body.decode().endswith("data: [DONE]\n\n"))
        self.assertNotIn('"usage"', body.decode())

    def test_tools_over_two_requests(self):
        messages = [{"role": "user", "content": "Weather in Bern?"}]
        first = self.client.chat.completions.create(model="tandem", messages=messages, tools=[WEATHER_TOOL])
        choice = first.choices[0]
        self.assertEqual(choice.finish_reason, "tool_calls")
        self.assertIsNone(choice.message.content)
        call = choice.message.tool_calls[0]
        self.assertEqual((call.id, call.function.name, json.loads(call.function.arguments)), ("call-w1", "weather", {"city": "Bern"}))
        # The client runs the tool and sends the result back.
        messages += [choice.message.model_dump(exclude_none=True),
                     {"role": "tool", "tool_call_id": call.id, "content": '{"celsius": 21}'}]
        second = self.client.chat.completions.create(model="tandem", messages=messages, tools=[WEATHER_TOOL])
        self.assertEqual(second.choices[0].finish_reason, "stop")
        self.assertEqual(second.choices[0].message.content, "Hello from the fake local model.")
        # Streamed, the call arrives as a delta with its index.
        chunks = list(self.client.chat.completions.create(model="tandem", messages=messages[:1], tools=[WEATHER_TOOL], stream=True))
        calls = [d for c in chunks if c.choices for d in (c.choices[0].delta.tool_calls or [])]
        self.assertEqual([(d.index, d.id, d.function.name) for d in calls], [(0, "call-w1", "weather")])
        self.assertEqual(chunks[-1].choices[0].finish_reason, "tool_calls")
        # tool_choice none declares no tools: the model answers.
        plain = self.client.chat.completions.create(model="tandem", messages=messages[:1], tools=[WEATHER_TOOL], tool_choice="none")
        self.assertEqual(plain.choices[0].message.content, "Hello from the fake local model.")

    def test_json_schema_and_json_object(self):
        schema = {"type": "object", "properties": {"city": {"type": "string"}, "celsius": {"type": "integer"}},
                  "required": ["city", "celsius"], "additionalProperties": False}
        answer = self.client.chat.completions.create(
            model="tandem", messages=[{"role": "user", "content": "Weather?"}],
            response_format={"type": "json_schema", "json_schema": {"name": "weather", "schema": schema, "strict": True}})
        self.assertEqual(json.loads(answer.choices[0].message.content), {"city": "Bern", "celsius": 21})
        # json_object: the answer is checked to be an object.
        loose = self.client.chat.completions.create(
            model="json", messages=[{"role": "user", "content": "Weather?"}], response_format={"type": "json_object"})
        self.assertEqual(json.loads(loose.choices[0].message.content), {"ok": True})
        with self.assertRaises(openai.APIStatusError) as caught:
            self.client.chat.completions.create(
                model="local", messages=[{"role": "user", "content": "Weather?"}], response_format={"type": "json_object"})
        self.assertEqual((caught.exception.status_code, caught.exception.code), (502, "decoding_failure"))
        # A document off the schema is not passed on as if it were valid.
        strict = {"type": "object", "properties": {"city": {"type": "string", "enum": ["Chur"]}}, "required": ["city"]}
        with self.assertRaises(openai.APIStatusError) as caught:
            self.client.chat.completions.create(
                model="local", messages=[{"role": "user", "content": "Weather?"}],
                response_format={"type": "json_schema", "json_schema": {"name": "w", "schema": strict}})
        self.assertEqual(caught.exception.status_code, 502)
        self.assertEqual(caught.exception.code, "decoding_failure")
        # A schema the host cannot express is refused before any backend call, naming where.
        with self.assertRaises(openai.BadRequestError) as caught:
            self.client.chat.completions.create(
                model="local", messages=[{"role": "user", "content": "Weather?"}],
                response_format={"type": "json_schema", "json_schema": {"name": "w", "schema": {"type": "object", "frobnicate": 1}}})
        self.assertEqual(caught.exception.code, "unsupported_schema")

    def test_embeddings_float_and_base64(self):
        one = self.client.embeddings.create(model="local", input="the quick brown fox")
        self.assertEqual(len(one.data), 1)
        self.assertEqual(len(one.data[0].embedding), 64)
        floats = self.client.embeddings.create(model="local", input=["a cat", "a cat", "quantum flux"], encoding_format="float")
        vectors = [d.embedding for d in floats.data]
        self.assertEqual(vectors[0], vectors[1])
        self.assertNotEqual(vectors[0], vectors[2])
        norm = sum(x * x for x in vectors[0]) ** 0.5
        self.assertAlmostEqual(norm, 1.0, places=4)
        # The client's default (base64) decodes to the same numbers.
        self.assertAlmostEqual(sum(abs(a - b) for a, b in zip(one.data[0].embedding,
            self.client.embeddings.create(model="local", input=["the quick brown fox"], encoding_format="float").data[0].embedding)), 0, places=5)
        with self.assertRaises(openai.BadRequestError) as caught:
            self.client.embeddings.create(model="local", input=[1, 2, 3])
        self.assertIn("input[0]", caught.exception.message)

    def test_models_and_health(self):
        ids = [m.id for m in self.client.models.list()]
        self.assertEqual(ids[0], "tandem")
        self.assertTrue({"cloud", "local", "slow"} <= set(ids))
        health = self.server.health()
        self.assertEqual(health["status"], "ok")
        self.assertTrue(health["backends"]["local"]["available"])
        self.assertEqual(health["backends"]["cloud"]["kind"], "cloud")

    # ---- concurrency -------------------------------------------------------------------

    def test_eight_clients_times_twenty_five_requests(self):
        errors, answers = [], []

        def worker(index):
            client = self.server.client()
            for n in range(25):
                try:
                    answer = client.chat.completions.create(
                        model="tandem", messages=[{"role": "user", "content": f"client {index} request {n}"}])
                    answers.append(answer.choices[0].message.content)
                except Exception as error:  # counted, not raised: the figure is the error count
                    errors.append(repr(error))

        threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(errors, [])
        self.assertEqual(len(answers), 200)
        self.assertEqual(set(answers), {"Hello from the fake local model."})

    def test_disconnect_cancels_the_generation(self):
        for model in ["slow", "slow-isolated"]:
            with self.subTest(model=model):
                stream = self.client.chat.completions.create(model=model, messages=[{"role": "user", "content": "Go"}], stream=True)
                first = next(iter(stream))
                self.assertEqual(first.choices[0].delta.role, "assistant")
                started = time.monotonic()
                stream.close()
                # The plugin's token delay is woken by the cancel: the request ends at once, not in 10 s.
                while self.server.health()["inFlight"] > 0 and time.monotonic() - started < 5:
                    time.sleep(0.05)
                self.assertEqual(self.server.health()["inFlight"], 0)
                self.assertLess(time.monotonic() - started, 3)
                # It serves one at a time: it is free again, so a short request is served at once.
                answer = self.client.chat.completions.create(model=model, messages=[{"role": "user", "content": "Go"}], max_tokens=1)
                self.assertEqual(answer.choices[0].message.content, "word0")
                self.assertLess(time.monotonic() - started, 4)

    def test_disconnect_cancels_a_whole_answer_too(self):
        # Nothing is written to a client waiting for a whole answer: the server's hang-up watch
        # on the socket is what notices, and cancels.
        sock = socket.create_connection(("127.0.0.1", self.server.port))
        body = json.dumps({"model": "slow", "messages": [{"role": "user", "content": "Go"}]}).encode()
        sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        while self.server.health()["inFlight"] == 0:
            time.sleep(0.02)
        started = time.monotonic()
        sock.close()
        while self.server.health()["inFlight"] > 0 and time.monotonic() - started < 5:
            time.sleep(0.05)
        self.assertLess(time.monotonic() - started, 2)
        time.sleep(0.2)
        self.assertTrue(any("POST /v1/chat/completions 499" in line for line in self.server.lines[-5:]), self.server.lines[-5:])

    # ---- bad input ---------------------------------------------------------------------

    def assertOpenAIError(self, status, body, code=None):
        payload = json.loads(body)
        self.assertEqual(set(payload["error"]) >= {"message", "type", "code"}, True, payload)
        if code:
            self.assertEqual(payload["error"]["code"], code)
        return payload["error"]

    def test_body_that_is_not_json_or_the_wrong_shape(self):
        status, _, body = self.server.raw("POST", "/v1/chat/completions", b"{not json", {"Content-Type": "application/json"})
        self.assertEqual(status, 400)
        self.assertOpenAIError(status, body, "invalid_json")
        status, _, body = self.server.raw("POST", "/v1/chat/completions", b"[1, 2]")
        self.assertEqual(status, 400)
        self.assertIn("expected an object", self.assertOpenAIError(status, body)["message"])
        status, _, body = self.server.raw("POST", "/v1/chat/completions", json.dumps({"model": "tandem", "messages": "hi"}).encode())
        self.assertEqual(status, 400)
        self.assertEqual(self.assertOpenAIError(status, body)["param"], "messages")
        with self.assertRaises(openai.BadRequestError) as caught:
            self.client.chat.completions.create(model="tandem", messages=[{"role": "user", "content": "Hi"}], temperature=5)
        self.assertEqual(caught.exception.param, "temperature")
        with self.assertRaises(openai.BadRequestError) as caught:
            self.client.chat.completions.create(model="tandem", messages=[{"role": "user", "content": "Hi"}], extra_body={"temprature": 1})
        self.assertEqual(caught.exception.code, "unknown_parameter")
        self.assertServing()

    def test_ten_megabyte_body(self):
        with self.assertRaises(openai.APIStatusError) as caught:
            self.client.chat.completions.create(model="tandem", messages=[{"role": "user", "content": "x" * (10 * 1024 * 1024)}])
        self.assertEqual(caught.exception.status_code, 413)
        self.assertEqual(caught.exception.code, "request_too_large")
        self.assertServing()

    def test_ten_thousand_messages(self):
        with self.assertRaises(openai.BadRequestError) as caught:
            self.client.chat.completions.create(model="tandem", messages=[{"role": "user", "content": "hi"}] * 10_000)
        self.assertEqual(caught.exception.code, "too_many_messages")
        self.assertIn("10000", caught.exception.message)
        self.assertServing()

    def test_unknown_role(self):
        with self.assertRaises(openai.BadRequestError) as caught:
            self.client.chat.completions.create(model="tandem", messages=[{"role": "user", "content": "a"}, {"role": "wizard", "content": "b"}])
        self.assertEqual(caught.exception.param, "messages[1].role")
        self.assertIn('unknown role "wizard"', caught.exception.message)
        self.assertServing()

    def test_tool_message_without_a_matching_call(self):
        with self.assertRaises(openai.BadRequestError) as caught:
            self.client.chat.completions.create(model="tandem", messages=[
                {"role": "user", "content": "a"}, {"role": "tool", "tool_call_id": "call-nope", "content": "21"}])
        self.assertEqual(caught.exception.param, "messages[1].tool_call_id")
        self.assertEqual(caught.exception.code, "unmatched_tool_call")
        self.assertServing()

    def test_stream_client_that_disconnects_after_the_first_chunk(self):
        for _ in range(3):
            sock = socket.create_connection(("127.0.0.1", self.server.port))
            body = json.dumps({"model": "slow", "stream": True, "messages": [{"role": "user", "content": "Go"}]}).encode()
            sock.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            received = b""
            while b"data: " not in received:
                piece = sock.recv(4096)
                self.assertTrue(piece, "the server closed the stream before its first chunk")
                received += piece
            sock.close()
        self.assertServing(model="slow")

    def test_slow_client_reading_one_byte_a_second(self):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        sock.connect(("127.0.0.1", self.server.port))
        sock.sendall(b"GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n")
        done = threading.Event()

        def trickle():
            while not done.is_set() and sock.recv(1):
                time.sleep(1)

        reader = threading.Thread(target=trickle, daemon=True)
        reader.start()
        started = time.monotonic()
        for _ in range(5):
            self.assertServing()
        self.assertLess(time.monotonic() - started, 5)
        done.set()
        sock.close()

    def test_hundred_idle_connections(self):
        idle = [socket.create_connection(("127.0.0.1", self.server.port)) for _ in range(100)]
        started = time.monotonic()
        for _ in range(5):
            self.assertServing()
        self.assertLess(time.monotonic() - started, 5)
        # The idle timeout (3 s here) closes them: the server keeps no thread for them.
        time.sleep(4.5)
        for sock in idle:
            sock.settimeout(2)
            self.assertEqual(sock.recv(1), b"")
            sock.close()
        self.assertServing()

    def assertServing(self, model="tandem"):
        answer = self.client.chat.completions.create(model=model, messages=[{"role": "user", "content": "still there?"}], max_tokens=1)
        self.assertTrue(answer.choices[0].message.content)

    # ---- one Tandem host as another's cloud side ---------------------------------------

    def test_tandem_cloud_plugin_pointed_at_tandem_serve(self):
        config_dir = tempfile.mkdtemp(prefix="tandem-serve-peer-")
        config = os.path.join(config_dir, "tandem.json")
        with open(config, "w") as f:
            json.dump({"plugins_dir": PLUGINS, "mode": "cloud-only", "backends": {"cloud": {"plugin": "tandem.cloud", "settings": {
                "dialect": "openai", "model": "tandem", "base_url": self.server.base, "api_key_required": False}}}}, f)

        def respond(*arguments):
            done = subprocess.run([TANDEM, "--config", config, "respond", "--json", *arguments],
                                  capture_output=True, text=True, timeout=60)
            self.assertEqual(done.returncode, 0, done.stderr)
            return json.loads(done.stdout.strip().splitlines()[-1])  # streamed: {"delta"} lines first

        whole = respond("Hi there")
        self.assertEqual(whole["text"], "Hello from the fake local model.")
        self.assertEqual(whole["servedBy"], "cloud")
        self.assertEqual(whole["modelVersion"], "fake-local-v1")
        streamed = respond("--stream", "Hi there")
        self.assertEqual(streamed["text"], "Hello from the fake local model.")
        schema = os.path.join(config_dir, "schema.json")
        with open(schema, "w") as f:
            json.dump({"type": "object", "properties": {"city": {"type": "string"}, "celsius": {"type": "integer"}},
                       "required": ["city", "celsius"]}, f)
        guided = respond("--schema", schema, "Weather?")
        self.assertEqual(json.loads(guided["text"]), {"city": "Bern", "celsius": 21})


class StrictServerTests(unittest.TestCase):
    """A server with an API key, a 1-second request limit and a queue of one."""

    @classmethod
    def setUpClass(cls):
        config = {"backends": {
            "local": fake("local", availability="modelNotReady", availability_detail="weights still loading"),
            "cloud": fake("cloud", availability="notConfigured", availability_detail="no API key"),
            "hang": fake("local", hang="true"),
            "limited": fake("cloud", error="rateLimited", concurrent="true"),
        }, "primary": "local", "secondary": "cloud"}
        cls.server = Server(config, "--api-key-env", "TANDEM_SERVE_TEST_KEY", "--request-timeout", "1.5", "--queue-depth", "1",
                            env={"TANDEM_SERVE_TEST_KEY": KEY})
        cls.client = cls.server.client(KEY)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()

    def test_missing_or_wrong_key(self):
        with self.assertRaises(openai.AuthenticationError):
            self.server.client("wrong-key").models.list()
        status, _, body = self.server.raw("GET", "/v1/models")
        self.assertEqual(status, 401)
        self.assertEqual(json.loads(body)["error"]["code"], "invalid_api_key")
        self.assertEqual([m.id for m in self.client.models.list()][0], "tandem")
        self.assertEqual(self.server.raw("GET", "/health")[0], 200)
        self.assertFalse(any(KEY in line for line in self.server.lines))

    def test_no_model_may_serve_names_both_sides(self):
        with self.assertRaises(openai.APIStatusError) as caught:
            self.client.chat.completions.create(model="tandem", messages=[{"role": "user", "content": "Hi"}])
        self.assertEqual(caught.exception.status_code, 503)
        self.assertIn("weights still loading", caught.exception.message)
        self.assertIn("no API key", caught.exception.message)
        sides = caught.exception.body["tandem"]
        self.assertEqual((sides["primary"]["reason"], sides["secondary"]["reason"]), ("modelNotReady", "notConfigured"))

    def test_deadline_passed(self):
        started = time.monotonic()
        with self.assertRaises(openai.APIStatusError) as caught:
            self.client.chat.completions.create(model="hang", messages=[{"role": "user", "content": "Hi"}])
        self.assertEqual(caught.exception.status_code, 504)
        self.assertLess(time.monotonic() - started, 5)
        with self.assertRaises(openai.APIStatusError) as caught:
            list(self.client.chat.completions.create(model="hang", messages=[{"role": "user", "content": "Hi"}], stream=True))
        self.assertEqual(caught.exception.status_code, 504)

    def test_full_queue_is_429_with_retry_after(self):
        results = []

        def call():
            try:
                self.client.chat.completions.create(model="hang", messages=[{"role": "user", "content": "Hi"}])
            except openai.APIStatusError as error:
                results.append((error.status_code, error.response.headers.get("retry-after")))

        threads = [threading.Thread(target=call) for _ in range(3)]
        for thread in threads:
            thread.start()
            time.sleep(0.2)
        for thread in threads:
            thread.join()
        # One runs, one waits (both reach the deadline), the third finds the queue full.
        self.assertEqual(sorted(status for status, _ in results), [429, 504, 504])
        self.assertEqual([retry for status, retry in results if status == 429], ["1"])

    def test_rate_limited_backend_is_429(self):
        with self.assertRaises(openai.RateLimitError) as caught:
            self.client.chat.completions.create(model="limited", messages=[{"role": "user", "content": "Hi"}])
        self.assertIsNotNone(caught.exception.response.headers.get("retry-after"))


class LifecycleTests(unittest.TestCase):
    def test_non_loopback_bind_needs_a_key(self):
        done = subprocess.run([TANDEM, "serve", "--host", "0.0.0.0", "--port", "0"], capture_output=True, text=True, timeout=30)
        self.assertEqual(done.returncode, 2)
        self.assertIn("not a loopback address", done.stderr)

    def test_sigterm_finishes_in_flight_requests(self):
        server = Server({"backends": {"slow": fake("local", reply="one two three four five six seven eight", token_delay_ms="200")},
                         "primary": "slow"})
        answers = []
        thread = threading.Thread(target=lambda: answers.append(
            server.client().chat.completions.create(model="slow", messages=[{"role": "user", "content": "Go"}]).choices[0].message.content))
        thread.start()
        time.sleep(0.5)
        server.process.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        with self.assertRaises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", server.port), timeout=2)
        thread.join(30)
        self.assertEqual(answers, ["one two three four five six seven eight"])
        self.assertEqual(server.process.wait(30), 0)
        self.assertTrue(any("draining" in line for line in server.lines))


if __name__ == "__main__":
    unittest.main(verbosity=2)
