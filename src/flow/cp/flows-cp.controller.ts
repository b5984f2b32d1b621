import { Body, Controller, Get, Header, HttpCode, Param, ParseIntPipe, Post, Query, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { CpConfirmationDto, requireConfirmation } from '../../common/cp-confirmation';
import { CpPermission } from '../../common/decorators/cp-permission.decorator';
import { AppError, FieldErrors } from '../../common/errors/app-error';
import { wantsHtml } from '../../common/session-data';
import { AppConfig } from '../../config/app-config';
import { InjectConfig } from '../../config/config.module';
import { CpListQuery } from '../../common/cp-list.query';
import { FormAnswer, PageView } from '../../web/answers/answers';
import { RefusedGoesTo } from '../../web/answers/refused-form.decorator';
import { FlowsService, FlowWithSecret, NEWEST_RUNS_FIRST, RUN_SORTS } from '../flows.service';
import { FlowFormDto, FlowToggleDto } from './flow-form.dto';
import { actionsText, describeFlow, describeRun, WEBHOOK_PATH } from './flow-views';

/** What a new flow's form starts with: one action of each kind shows the format (docs/http-contract.md). */
const EXAMPLE_ACTIONS = JSON.stringify(
  [
    { type: 'setOrderStatus', orderNumber: '{{webhook.orderNumber}}', status: 'processing' },
    { type: 'log', message: 'Order {{webhook.orderNumber}} is being processed' },
  ],
  null,
  2,
);

interface FormState {
  flow?: ReturnType<typeof describeFlow>;
  name: string;
  actions: string;
  enabled?: boolean;
  errors?: FieldErrors;
  problem?: string;
}

/**
 * Flows in the CP, behind the `accessFlows` permission: the list, create and edit (actions as JSON), enable
 * and disable, secret rotation and the runs log. A webhook secret is shown in full once, on the page that
 * answers its creation or rotation, and is stored nowhere to be shown again.
 */
@ApiExcludeController()
@CpPermission('accessFlows')
@Controller('flows')
export class FlowsCpController {
  constructor(
    private readonly flows: FlowsService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  @Get()
  async index(): Promise<PageView> {
    const flows = (await this.flows.list()).map(describeFlow);
    return new PageView('cp/flows', { layout: 'cp', title: 'Flows', flows });
  }

  @Get('new')
  form(): PageView {
    return this.formView({ name: '', actions: EXAMPLE_ACTIONS, enabled: true });
  }

  @Post()
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async create(@Body() body: FlowFormDto, @Req() req: Request): Promise<object> {
    const input = { name: body.name ?? '', actions: body.actions ?? '' };
    const enabled = body.enabled !== undefined;
    try {
      return this.secretAnswer(req, await this.flows.create(input, enabled));
    } catch (error) {
      return this.refusedFormView(req, error, { ...input, enabled });
    }
  }

  @Get(':id')
  async edit(@Param('id', ParseIntPipe) id: number): Promise<PageView> {
    const flow = await this.flows.get(id);
    return this.formView({ flow: describeFlow(flow), name: flow.name, actions: actionsText(flow) });
  }

  @Post(':id')
  @HttpCode(200)
  async update(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: FlowFormDto,
    @Req() req: Request,
  ): Promise<FormAnswer | PageView> {
    const flow = describeFlow(await this.flows.get(id));
    const input = { name: body.name ?? '', actions: body.actions ?? '' };
    try {
      return FormAnswer.done(`Flow "${(await this.flows.update(id, input)).name}" saved.`, {
        to: this.url(String(id)),
      });
    } catch (error) {
      return this.refusedFormView(req, error, { flow, ...input });
    }
  }

  @Post(':id/enabled')
  @HttpCode(200)
  @RefusedGoesTo('flows')
  async toggle(@Param('id', ParseIntPipe) id: number, @Body() body: FlowToggleDto): Promise<FormAnswer> {
    const enable = body.enabled === 'true';
    if (!enable) requireConfirmation(body, 'Disabling the flow');
    const flow = await this.flows.setEnabled(id, enable);
    const message = `Flow "${flow.name}" ${flow.enabled ? 'enabled' : 'disabled'}.`;
    return FormAnswer.done(message, { to: this.url('') }, { enabled: flow.enabled });
  }

  /** The old secret stops working at once, so this asks "I am sure". */
  @Post(':id/rotate-secret')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @RefusedGoesTo('flows/:id')
  async rotate(
    @Param('id', ParseIntPipe) id: number,
    @Body() body: CpConfirmationDto,
    @Req() req: Request,
  ): Promise<object> {
    requireConfirmation(body, 'Rotating the webhook secret');
    return this.secretAnswer(req, await this.flows.rotateSecret(id));
  }

  @Get(':id/runs')
  async runs(@Param('id', ParseIntPipe) id: number, @Query() query: CpListQuery): Promise<PageView> {
    const flow = describeFlow(await this.flows.get(id));
    const page = query.pageNumber;
    const { runs, total, pages } = await this.flows.runs(id, page, query.sortBy(RUN_SORTS, NEWEST_RUNS_FIRST));
    return new PageView('cp/flows-runs', {
      layout: 'cp',
      title: `Runs of ${flow.name}`,
      flow,
      runs: runs.map(describeRun),
      total,
      page,
      pages,
    });
  }

  /** The one answer that shows a secret in full (its routes send `no-store`); never written anywhere else. */
  private secretAnswer(req: Request, { flow, secret }: FlowWithSecret): object {
    const webhookUrl = `${this.config.baseUrl}${WEBHOOK_PATH}/${secret}`;
    if (!wantsHtml(req)) return { success: true, flow: describeFlow(flow), secret, webhookUrl };
    return new PageView('cp/flows-secret', {
      layout: 'cp',
      title: `Webhook secret of ${flow.name}`,
      flow: describeFlow(flow),
      secret,
      webhookUrl,
    });
  }

  /** A browser's refused form shown again (400) with its field errors; anything else is thrown on. */
  private refusedFormView(req: Request, error: unknown, state: FormState): PageView {
    if (!(error instanceof AppError) || !wantsHtml(req)) throw error;
    return this.formView({ ...state, errors: error.fields ?? {}, problem: error.message }, 400);
  }

  private formView(state: FormState, status?: number): PageView {
    const title = state.flow ? `Flow ${state.flow.name}` : 'New flow';
    return new PageView('cp/flows-form', { layout: 'cp', title, ...state, errors: state.errors ?? {} }, { status });
  }

  private url(path: string): string {
    return `/${this.config.cpTrigger}/flows${path ? `/${path}` : ''}`;
  }
}
